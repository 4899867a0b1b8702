import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// `actionable catalog [PATH] --format json`: the normalized catalog.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Print the normalized catalog (defaults filled in) as JSON.",
        discussion: "Refuses (exit 1, diagnostics on standard error) a catalog with lint errors."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case json }

    @Argument(help: "A directory of category files, or one file.")
    var path: String = "Categories"

    @Option(help: "Output format (json).")
    var format: Format = .json

    func run() throws {
        let files: [CategoryFile]
        do {
            files = try CatalogLoader().load(paths: [path])
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let result = Linter().lint(files)
        guard result.errorCount == 0 else {
            printError(XcodeReporterText.errors(in: result))
            printError("error: the catalog has \(result.errorCount) error(s); run `actionable lint \(path)` and fix them")
            throw ExitCode(1)
        }
        let catalog = Catalog(files.compactMap(\.category))
        print(catalog.jsonValue.prettySerialized())
    }
}

enum XcodeReporterText {
    static func errors(in result: LintResult) -> String {
        result.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
    }
}
