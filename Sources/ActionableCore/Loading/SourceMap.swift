import Synchronization
import Yams

/// Where each node of a category file is, found by JSON pointer (`/actions/1/id`).
///
/// Positions are only needed for diagnostics, so nothing is recorded while a file loads: the
/// map keeps the file's text and, the first time a position is asked for, parses it once more
/// and records every node's position. Clean files never pay for that; a file with thousands of
/// diagnostics pays once. A pointer the file does not have resolves to its nearest ancestor that
/// it does, so a diagnostic always has a position. Category options can also be found by name,
/// as `/options/@allowAnnouncement`.
public struct SourceMap: Sendable {
    /// The file the positions belong to.
    public let file: String
    private let table: PositionTable?

    /// A map for a file whose text is not available: every pointer resolves to 1:1.
    public init(file: String) {
        self.file = file
        self.table = nil
    }

    /// A map over `text`, the content of `file`.
    public init(file: String, text: String) {
        self.file = file
        self.table = PositionTable(text: text)
    }

    /// Whether the file has a node at `pointer`.
    public func contains(_ pointer: String) -> Bool { table?.entries[pointer] != nil }

    /// Where the value at `pointer` starts (or its nearest ancestor's, or 1:1).
    public func location(of pointer: String) -> SourceLocation { resolve(pointer, key: false) }

    /// Where the key of the value at `pointer` starts; for array elements, the element itself.
    public func keyLocation(of pointer: String) -> SourceLocation { resolve(pointer, key: true) }

    private func resolve(_ pointer: String, key: Bool) -> SourceLocation {
        let entries = table?.entries ?? [:]
        var current = Substring(pointer)
        while true {
            if let entry = entries[String(current)] {
                let position = key ? (entry.key ?? entry.value) : entry.value
                return SourceLocation(file: file, line: position.line, column: position.column)
            }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = current[..<slash]
        }
        return SourceLocation(file: file, line: 1, column: 1)
    }

    /// Escapes a mapping key for use as one JSON pointer token (RFC 6901: `~` → `~0`, `/` → `~1`).
    public static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var escaped = ""
        for character in token {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// The positions of a file's nodes, computed on first use and then kept.
private final class PositionTable: Sendable {
    struct Position: Sendable {
        var line: Int
        var column: Int
    }

    struct Entry: Sendable {
        var key: Position?
        var value: Position
    }

    /// Walking through aliases can multiply nodes; the walk stops recording past this many.
    static let maximumEntries = 200_000

    private let text: String
    private let computed = Mutex<[String: Entry]?>(nil)

    init(text: String) { self.text = text }

    var entries: [String: Entry] {
        computed.withLock { table in
            if let table { return table }
            let built = Self.build(text)
            table = built
            return built
        }
    }

    private static func build(_ text: String) -> [String: Entry] {
        CatalogLoader.configureNestingLimit()
        guard let parser = try? Parser(yaml: text, resolver: .basic, constructor: .default, encoding: .utf8),
            let root = try? parser.singleRoot()
        else { return [:] }
        var entries: [String: Entry] = [:]
        record(root, at: "", key: nil, into: &entries)
        return entries
    }

    private static func position(_ node: Node) -> Position {
        Position(line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    private static func record(_ node: Node, at pointer: String, key: Node?, into entries: inout [String: Entry]) {
        guard entries.count < maximumEntries else { return }
        entries[pointer] = Entry(key: key.map(position), value: position(node))
        switch node {
        case .mapping(let mapping):
            for (keyNode, value) in mapping {
                guard let name = keyNode.scalar?.string else { continue }
                record(value, at: pointer + "/" + SourceMap.escape(name), key: keyNode, into: &entries)
            }
        case .sequence(let sequence):
            for (index, element) in sequence.enumerated() {
                record(element, at: pointer + "/" + String(index), key: nil, into: &entries)
                if pointer == "/options", let name = element.scalar?.string {
                    entries[pointer + "/@" + name] = Entry(key: nil, value: position(element))
                }
            }
        default:
            break
        }
    }
}
