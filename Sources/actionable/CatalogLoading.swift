import ActionableCore
import ActionableLint
import ArgumentParser
import Foundation

/// Loads the catalog a command works on, refusing one with lint errors (exit 1) or an
/// unreadable path (exit 2).
func loadCheckedCatalog(_ path: String) throws -> Catalog {
    Catalog(try loadCheckedFiles(path).compactMap(\.category))
}

/// The category files a command works on, refused as ``loadCheckedCatalog(_:)`` refuses them.
func loadCheckedFiles(_ path: String) throws -> [CategoryFile] {
    do {
        return try Linter().checkedFiles(at: path)
    } catch {
        guard !error.errors.isEmpty else {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        printError(error.errors.map(\.description).joined(separator: "\n"))
        printError("error: the catalog has \(error.errors.count) error(s); run `actionable lint \(path)` and fix them")
        throw ExitCode(1)
    }
}

/// Prints `message` as an error and fails with status 1 (a refusal, not a usage error).
func refuse(_ message: String) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(1)
}
