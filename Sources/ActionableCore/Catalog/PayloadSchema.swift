/// The custom keys (outside `aps`) that a category's notifications carry.
public struct PayloadSchema: Hashable, Sendable {
    /// The fields in file order.
    public var fields: [PayloadField]

    /// Keys a category may not declare: APNs owns `aps`, Actionable owns `actionToken`.
    public static let reservedKeys: Set<String> = ["aps", "actionToken"]

    /// Creates a schema.
    public init(fields: [PayloadField] = []) { self.fields = fields }

    /// The field named `key`, if declared.
    public subscript(key: String) -> PayloadField? {
        fields.first { $0.key == key }
    }
}

/// One custom payload key.
public struct PayloadField: Hashable, Sendable {
    /// The key in the notification's JSON.
    public var key: String
    /// The JSON type its value must have.
    public var type: PayloadType
    /// Whether every notification of the category must carry it.
    public var required: Bool
    /// For strings, the longest value allowed, in characters.
    public var maxLength: Int?

    /// Creates a field.
    public init(key: String, type: PayloadType, required: Bool = false, maxLength: Int? = nil) {
        self.key = key
        self.type = type
        self.required = required
        self.maxLength = maxLength
    }
}

/// A JSON type a payload value may have.
public enum PayloadType: String, Hashable, Sendable, CaseIterable {
    case string, integer, number, boolean, object, array
}
