import ArgumentParser
import Foundation

/// The `actionable` command.
@main
struct Actionable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actionable",
        abstract: "Category files, lint, payloads and a webhook server for iOS actionable notifications.",
        // The release this commit is (docs/ios-client.md, "Versions"); @actionable/node's package.json says the same.
        version: "0.1.0",
        subcommands: [
            LintCommand.self, CatalogCommand.self, PayloadCommand.self, ServeCommand.self, RespondCommand.self,
            GenerateCommand.self, DeliveriesCommand.self, PreviewCommand.self, DiffCommand.self, APNsStandInCommand.self, FCMStandInCommand.self,
            SendCommand.self,
            DevicesCommand.self,
        ]
    )

    /// Runs the command; usage errors exit with status 2 (the specification's "usage error"),
    /// not ArgumentParser's default 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}
