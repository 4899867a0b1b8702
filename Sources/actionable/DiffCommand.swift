import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// `actionable diff OLD NEW` and `actionable diff [NEW] --baseline REF`: the catalog changes that
/// would break installed apps or deployed backends.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report catalog changes that break installed apps or deployed backends.",
        discussion: """
            Compares two directories of category files (OLD NEW), or NEW (default Categories) with \
            itself at a git revision (--baseline REF, for example origin/main in a pull request).

            Errors break apps or backends already out there (a removal without retiring first, a new \
            required payload key, ...); warnings change what people see; information is safe.

            Exit status: 0 no errors (warnings allowed unless --strict), 1 errors (or warnings under \
            --strict), 2 usage error, an unreadable path or an unknown revision.
            """
    )

    @Argument(help: "OLD and NEW category directories; with --baseline, only NEW (default: Categories).")
    var paths: [String] = []

    @Option(help: "Read OLD from git at this revision (for example origin/main).")
    var baseline: String?

    @OptionGroup var report: ReportOptions

    @Option(help: "A configuration file (default: \(CatalogDiff.configurationFileName) in NEW).")
    var config: String?

    func validate() throws {
        if baseline == nil && paths.count != 2 {
            throw ValidationError("give OLD and NEW directories, or --baseline REF with at most one directory (NEW)")
        }
        if baseline != nil && paths.count > 1 {
            throw ValidationError("with --baseline, give only NEW (OLD is NEW at the baseline revision)")
        }
    }

    func run() throws {
        let newPath = baseline == nil ? paths[1] : (paths.first ?? "Categories")
        let loader = CatalogLoader()
        let result: LintResult
        do {
            let configuration = try loadConfiguration(newPath: newPath)
            let old: [CategoryFile]
            if let baseline {
                let loaded = try GitBaseline(reference: baseline, directory: newPath).load(with: loader)
                if let note = loaded.note { printError(note) }
                old = loaded.files
            } else {
                old = try loader.load(paths: [paths[0]])
            }
            let new = try loader.load(paths: [newPath])
            result = CatalogDiff(configuration: configuration).diff(old: old, new: new)
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        FileHandle.standardOutput.write(Data(report.format.report(result, tool: DiffRules.tool).utf8))
        if report.format == .xcode {
            printError(
                "Found \(result.errorCount) breaking change(s), \(result.warningCount) warning(s) and "
                    + "\(result.infoCount) safe change(s).")
        }
        let status = result.exitStatus(strict: report.strict)
        if status != 0 { throw ExitCode(status) }
    }

    private func loadConfiguration(newPath: String) throws -> LintConfiguration {
        if let config { return try LintConfiguration(contentsOf: config, rules: DiffRules.identifiers) }
        let candidate = (newPath as NSString).appendingPathComponent(CatalogDiff.configurationFileName)
        guard FileManager.default.fileExists(atPath: candidate) else { return LintConfiguration() }
        return try LintConfiguration(contentsOf: candidate, rules: DiffRules.identifiers)
    }
}
