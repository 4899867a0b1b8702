public import ActionableCore

/// A catalog from category files written inline, for tests.
public struct CatalogLoadError: Error, CustomStringConvertible {
    /// The load diagnostics.
    public let diagnostics: [Diagnostic]
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

extension Catalog {
    /// Loads one category per YAML string; throws ``CatalogLoadError`` if any has a syntax or
    /// schema error.
    ///
    /// ```swift
    /// let catalog = try Catalog(yaml: """
    ///     category: invite
    ///     actions: [{ id: accept, title: Accept }]
    ///     """)
    /// ```
    public init(yaml files: String...) throws {
        let loader = CatalogLoader()
        let loaded = files.enumerated().map { loader.loadFile(path: "inline-\($0.offset).yaml", contents: Array($0.element.utf8)) }
        let diagnostics = loaded.flatMap(\.diagnostics)
        guard diagnostics.isEmpty else { throw CatalogLoadError(diagnostics: diagnostics) }
        self.init(loaded.compactMap(\.category))
    }
}
