public import ActionableCore

extension Linter {
    /// Loads and lints the category files under `path` and returns their catalog, refusing one
    /// with lint errors (every error listed) or a path that cannot be read.
    ///
    /// Whatever serves or builds from a catalog (`actionable serve`, `payload`, `catalog`, the
    /// `ActionableService` library) loads it through here, so they all refuse the same things.
    public func checkedCatalog(at path: String) throws(CatalogRefused) -> Catalog {
        Catalog(try checkedFiles(at: path).compactMap(\.category))
    }

    /// The category files under `path`, each with its category, refusing them as
    /// ``checkedCatalog(at:)`` does; for tools that name the file of each category.
    public func checkedFiles(at path: String) throws(CatalogRefused) -> [CategoryFile] {
        let files: [CategoryFile]
        let result: LintResult
        do {
            (files, result) = try lint(paths: [path])
        } catch {
            throw CatalogRefused(path: path, errors: [], description: "\(error)")
        }
        let errors = result.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            throw CatalogRefused(
                path: path, errors: errors,
                description: errors.map(\.description).joined(separator: "\n")
                    + "\nthe catalog has \(errors.count) error(s); run `actionable lint \(path)` and fix them")
        }
        return files
    }
}

/// A catalog that cannot be used: its path cannot be read (``errors`` is empty), or it has lint
/// errors (all of them in ``errors``).
public struct CatalogRefused: Error, Sendable, CustomStringConvertible {
    /// The path given.
    public var path: String
    /// The lint errors; empty when the path itself could not be read.
    public var errors: [Diagnostic]
    /// Every error as `file:line:column: error: …`, and what to run.
    public var description: String
}
