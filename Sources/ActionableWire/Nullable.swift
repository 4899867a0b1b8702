/// An optional member the contract requires to be present: `nil` is written as `null`, never
/// left out (Swift's synthesized encoding leaves it out), and read back from `null` or from a
/// document that leaves it out.
///
/// ```swift
/// struct Delivery: Codable {
///     @Nullable var lastError: String?   // "lastError": null
/// }
/// ```
@propertyWrapper
public struct Nullable<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The value.
    public var wrappedValue: Value?

    /// A member holding `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A ``Nullable`` member that the document leaves out reads as `nil`.
    public func decode<Value>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
