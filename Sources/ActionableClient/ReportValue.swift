import Foundation

/// A JSON value of a report's payload.
public enum ReportValue: Hashable, Sendable, Codable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case array([ReportValue])
    case object([String: ReportValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ReportValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ReportValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as `JSONSerialization` writes it.
    var foundationValue: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return NSNumber(value: value)
        case .number(let value): return NSNumber(value: value)
        case .bool(let value): return NSNumber(value: value)
        case .null: return NSNull()
        case .array(let value): return value.map(\.foundationValue)
        case .object(let value): return value.mapValues(\.foundationValue)
        }
    }

    /// `values` (from `userInfo`) as JSON values. They pass through `JSONSerialization`, which
    /// tells a boolean `NSNumber` from a numeric one on every platform.
    static func object(from values: [String: Any]) throws -> [String: ReportValue] {
        for (key, value) in values where !JSONSerialization.isValidJSONObject([value]) {
            throw ActionReportError.notJSON(key: key, found: typeName(of: value))
        }
        let data = try JSONSerialization.data(withJSONObject: values, options: [.fragmentsAllowed])
        return try JSONDecoder().decode([String: ReportValue].self, from: data)
    }

    /// A short name of `value`'s type for messages.
    static func typeName(of value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is NSNumber: return "a number"
        case is NSNull: return "null"
        case is [Any]: return "an array"
        case is [AnyHashable: Any]: return "a dictionary"
        default: return "a value of type \(type(of: value))"
        }
    }
}
