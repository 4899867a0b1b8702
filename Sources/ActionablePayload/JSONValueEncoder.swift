import ActionableCore
import Foundation

/// Encodes any `Encodable` into a ``JSONValue``, keys in encoding order.
///
/// The payload builder validates a backend's custom payload against the category's schema
/// before writing the final bytes; encoding straight into a value avoids writing JSON text,
/// parsing it back, and writing it again. Dates, data and URLs are written as `JSONEncoder`'s
/// defaults write them (seconds since 2001, base64, absolute string).
enum JSONValueEncoder {
    static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        let root = EncodingNode()
        try root.store(value, codingPath: [])
        return root.value
    }
}

/// A mutable tree while encoding: containers handed out earlier must see later writes.
final class EncodingNode {
    enum Content {
        case pending
        case value(JSONValue)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    var content: Content = .pending

    var value: JSONValue {
        switch content {
        case .pending: return .object([])
        case .value(let value): return value
        case .object(let pairs): return .object(pairs.map { ($0.0, $0.1.value) })
        case .array(let nodes): return .array(nodes.map(\.value))
        }
    }

    func store<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        switch value {
        case let text as String: content = .value(.string(text))
        case let flag as Bool: content = .value(.bool(flag))
        case let number as Int: content = .value(.int(number))
        case let number as Int8: content = .value(.int(Int(number)))
        case let number as Int16: content = .value(.int(Int(number)))
        case let number as Int32: content = .value(.int(Int(number)))
        case let number as Int64: content = .value(.int(Int(number)))
        case let number as UInt8: content = .value(.int(Int(number)))
        case let number as UInt16: content = .value(.int(Int(number)))
        case let number as UInt32: content = .value(.int(Int(number)))
        case let number as Double: content = .value(.double(number))
        case let number as Float: content = .value(.double(Double(number)))
        case let json as JSONValue: content = .value(json)
        case let date as Date: content = .value(.double(date.timeIntervalSinceReferenceDate))
        case let data as Data: content = .value(.string(data.base64EncodedString()))
        case let url as URL: content = .value(.string(url.absoluteString))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func objectPairs() -> [(String, EncodingNode)] {
        if case .object(let pairs) = content { return pairs }
        content = .object([])
        return []
    }

    func child(forKey key: String) -> EncodingNode {
        var pairs = objectPairs()
        if let existing = pairs.first(where: { $0.0 == key }) { return existing.1 }
        let node = EncodingNode()
        pairs.append((key, node))
        content = .object(pairs)
        return node
    }

    func appendChild() -> EncodingNode {
        var nodes: [EncodingNode] = []
        if case .array(let existing) = content { nodes = existing }
        let node = EncodingNode()
        nodes.append(node)
        content = .array(nodes)
        return node
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        _ = node.objectPairs()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(forKey: key.stringValue).store(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.child(forKey: key.stringValue)
        _ = child.objectPairs()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.content = .array([])
        return UnkeyedContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let nodes) = node.content { return nodes.count }
        return 0
    }

    mutating func encodeNil() throws { node.appendChild().content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try node.appendChild().store(value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [IndexKey(count)]
        let child = node.appendChild()
        _ = child.objectPairs()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        let child = node.appendChild()
        child.content = .array([])
        return UnkeyedContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.appendChild(), codingPath: codingPath)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}
