/// One loaded category file: what could be decoded, where each node was, and what went wrong.
public struct CategoryFile: Sendable {
    /// The path as given to the loader.
    public let path: String
    /// The category, when the file was readable and declared a `category` string. It holds every
    /// part that decoded; parts with schema errors are left out (and reported in ``diagnostics``).
    public let category: NotificationCategory?
    /// The position of any node, by JSON pointer.
    public let sourceMap: SourceMap
    /// The `syntax` and `schema` diagnostics found while loading.
    public let diagnostics: [Diagnostic]
    /// Which contexts the file wrote out (the others were derived from the actions).
    public let explicitContexts: ExplicitContexts

    /// Creates a loaded file.
    public init(
        path: String, category: NotificationCategory?, sourceMap: SourceMap, diagnostics: [Diagnostic],
        explicitContexts: ExplicitContexts = []
    ) {
        self.path = path
        self.category = category
        self.sourceMap = sourceMap
        self.diagnostics = diagnostics
        self.explicitContexts = explicitContexts
    }

    /// The file name without directory and extension (`invite` for `Categories/a/invite.yaml`).
    public var baseName: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}

/// The contexts a category file wrote out.
public struct ExplicitContexts: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `contexts.default` is in the file.
    public static let `default` = ExplicitContexts(rawValue: 1)
    /// `contexts.minimal` is in the file.
    public static let minimal = ExplicitContexts(rawValue: 2)
}
