import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// `actionable lint [PATH ...] [--format ...] [--strict] [--config FILE]`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check category files alone and as one catalog.",
        discussion: """
            Exit status: 0 no errors (warnings allowed unless --strict), 1 errors (or warnings under \
            --strict), 2 usage error or an unreadable path.
            """
    )

    @Argument(help: "Category files or directories (searched at any depth).")
    var paths: [String] = ["Categories"]

    @OptionGroup var report: ReportOptions

    @Option(help: "A lint configuration file (default: .actionable-lint.yml beside the files).")
    var config: String?

    func run() throws {
        let configuration: LintConfiguration
        do {
            configuration = try loadConfiguration()
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let result: LintResult
        do {
            result = try Linter(configuration: configuration).lint(paths: paths).result
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data(report.format.report(result).utf8))
        if report.format == .xcode {
            printError("Found \(result.errorCount) error(s) and \(result.warningCount) warning(s) in \(result.fileCount) file(s).")
        }
        let status = result.exitStatus(strict: report.strict)
        if status != 0 { throw ExitCode(status) }
    }

    private func loadConfiguration() throws -> LintConfiguration {
        if let config { return try LintConfiguration(contentsOf: config) }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let directory = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
            let candidate = ((directory.isEmpty ? "." : directory) as NSString)
                .appendingPathComponent(LintConfiguration.fileName)
            if FileManager.default.fileExists(atPath: candidate) { return try LintConfiguration(contentsOf: candidate) }
        }
        return LintConfiguration()
    }
}
