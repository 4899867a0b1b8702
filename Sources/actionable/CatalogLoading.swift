import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// Loads the catalog a command works on, refusing one with lint errors (exit 1) or an
/// unreadable path (exit 2).
func loadCheckedCatalog(_ path: String) throws -> Catalog {
    let files: [CategoryFile]
    let result: LintResult
    do {
        (files, result) = try Linter().lint(paths: [path])
    } catch {
        printError("error: \(error)")
        throw ExitCode(2)
    }
    guard result.errorCount == 0 else {
        printError(result.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n"))
        printError("error: the catalog has \(result.errorCount) error(s); run `actionable lint \(path)` and fix them")
        throw ExitCode(1)
    }
    return Catalog(files.compactMap(\.category))
}

/// Prints `message` as an error and fails with status 1 (a refusal, not a usage error).
func refuse(_ message: String) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(1)
}
