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
        throw refuse(error)
    }
}

/// The exit of `refuse(_:)` when `error` is a refused catalog; `nil` otherwise.
func catalogRefusal(_ error: any Error) -> ExitCode? {
    (error as? CatalogRefused).map(refuse)
}

/// Prints why a catalog was refused and gives the exit status: 1 for lint errors (each printed),
/// 2 for a path that cannot be read.
func refuse(_ refused: CatalogRefused) -> ExitCode {
    guard !refused.errors.isEmpty else {
        printError("error: \(refused)")
        return ExitCode(2)
    }
    printError(refused.errors.map(\.description).joined(separator: "\n"))
    printError("error: the catalog has \(refused.errors.count) error(s); run `actionable lint \(refused.path)` and fix them")
    return ExitCode(1)
}

/// Prints `message` as an error and fails with status 1 (a refusal, not a usage error).
func refuse(_ message: String) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(1)
}
