/// The bounds within which the loader reads a file. A file beyond them gets a diagnostic instead
/// of a crash, a hang or unbounded memory.
public struct LoaderLimits: Hashable, Sendable {
    /// The largest file read, in bytes. Category files are a few kilobytes; 1 MiB leaves room
    /// for generous comments and translations while bounding memory per file.
    public var maximumFileSize: Int
    /// The most alias uses (`*name`) per file. Aliases are shared, not copied, but any work that
    /// walks or hashes a node through its aliases grows with their product ("billion laughs"):
    /// bounding their count bounds that product.
    public var maximumAliases: Int

    /// Creates limits.
    public init(maximumFileSize: Int = 1 << 20, maximumAliases: Int = 32) {
        self.maximumFileSize = maximumFileSize
        self.maximumAliases = maximumAliases
    }

    /// 1 MiB and 32 aliases.
    public static let `default` = LoaderLimits()
}

extension LoaderLimits {
    /// The deepest nesting libYAML accepts, for every file of the process (libYAML's limit is
    /// process-wide). The category format needs 4 levels.
    public static let nestingLimit = 32
}
