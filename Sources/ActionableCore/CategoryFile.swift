import Foundation

/// One loaded category file: what could be decoded, where each node was, and what went wrong.
public struct CategoryFile: Sendable {
    /// The path as given to the loader.
    public let path: String
    /// The category, when the file was readable and declared a `category` string. It holds every
    /// part that decoded; parts with schema errors are left out (and reported in ``diagnostics``).
    public let category: NotificationCategory?
    /// The position of every decoded node, by JSON pointer.
    public let sourceMap: SourceMap
    /// The `syntax` and `schema` diagnostics found while loading.
    public let diagnostics: [Diagnostic]

    /// Creates a loaded file.
    public init(path: String, category: NotificationCategory?, sourceMap: SourceMap, diagnostics: [Diagnostic]) {
        self.path = path
        self.category = category
        self.sourceMap = sourceMap
        self.diagnostics = diagnostics
    }

    /// The file name without directory and extension (`invite` for `Categories/a/invite.yaml`).
    public var baseName: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}

/// Where each node of a category file is, keyed by JSON pointer (`/actions/1/id`).
///
/// Category options are also recorded by name, as `/options/@allowAnnouncement`, because the
/// model keeps them as an option set without their order.
///
/// Rules ask for a node's position by pointer; a pointer the file does not have falls back to the
/// nearest ancestor that it does, so a diagnostic always has a position.
public struct SourceMap: Sendable {
    /// The file the positions belong to.
    public let file: String
    private var entries: [String: Entry] = [:]

    struct Entry: Sendable {
        var key: Position?
        var value: Position
    }

    struct Position: Sendable {
        var line: Int32
        var column: Int32
    }

    /// An empty map for `file`.
    public init(file: String) { self.file = file }

    mutating func record(_ pointer: String, value: (line: Int, column: Int), key: (line: Int, column: Int)? = nil) {
        entries[pointer] = Entry(
            key: key.map { Position(line: Int32($0.line), column: Int32($0.column)) },
            value: Position(line: Int32(value.line), column: Int32(value.column))
        )
    }

    /// Whether the file has a node at `pointer`.
    public func contains(_ pointer: String) -> Bool { entries[pointer] != nil }

    /// Where the value at `pointer` starts (or its nearest recorded ancestor, or 1:1).
    public func location(of pointer: String) -> SourceLocation {
        resolve(pointer, key: false)
    }

    /// Where the key of the value at `pointer` starts; for array elements, the element itself.
    public func keyLocation(of pointer: String) -> SourceLocation {
        resolve(pointer, key: true)
    }

    private func resolve(_ pointer: String, key: Bool) -> SourceLocation {
        var current = Substring(pointer)
        while true {
            if let entry = entries[String(current)] {
                let position = key ? (entry.key ?? entry.value) : entry.value
                return SourceLocation(file: file, line: Int(position.line), column: Int(position.column))
            }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }

    /// Escapes a mapping key for use as one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
