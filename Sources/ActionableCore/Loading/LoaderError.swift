/// A path the loader could not use at all (as opposed to a file with problems, which gets
/// diagnostics). The linter exits with status 2 on it.
public struct LoaderError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Kind: Hashable, Sendable {
        case notFound
        case unreadable(String)
        case notACategoryFile
    }

    private let kind: Kind
    /// The path at fault.
    public let path: String

    private init(_ kind: Kind, path: String) {
        self.kind = kind
        self.path = path
    }

    static func notFound(_ path: String) -> LoaderError { .init(.notFound, path: path) }
    static func unreadable(_ path: String, reason: String) -> LoaderError { .init(.unreadable(reason), path: path) }
    static func notACategoryFile(_ path: String) -> LoaderError { .init(.notACategoryFile, path: path) }

    public var description: String {
        switch kind {
        case .notFound:
            return "\(path): no such file or directory; pass a directory of category files (default: Categories)"
        case .unreadable(let reason):
            return "\(path): cannot be read (\(reason))"
        case .notACategoryFile:
            return "\(path): not a category file; category files end in .yaml, .yml or .json"
        }
    }
}
