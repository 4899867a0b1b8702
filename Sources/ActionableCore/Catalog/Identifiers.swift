/// What category and action identifiers share: a string with value semantics, written and
/// read as a plain JSON string, compared by its text.
public protocol StringIdentifier: RawRepresentable<String>, Hashable, Sendable, Comparable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// Wraps a string; use ``IdentifierSyntax/isValid(_:)`` to check it against the pattern.
    init(rawValue: String)
}

extension StringIdentifier {
    /// Wraps a string.
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The identifier of a notification category: the value a backend puts in `aps.category`.
public struct CategoryID: StringIdentifier {
    /// The identifier's text.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of an action within a category, as iOS reports it in `actionIdentifier`.
public struct ActionID: StringIdentifier {
    /// The identifier's text.
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple's identifier for "the user opened the notification" (`UNNotificationDefaultActionIdentifier`).
    public static let `default` = ActionID("com.apple.UNNotificationDefaultActionIdentifier")
    /// Apple's identifier for "the user dismissed the notification" (`UNNotificationDismissActionIdentifier`),
    /// sent only for categories with the `customDismissAction` option.
    public static let dismiss = ActionID("com.apple.UNNotificationDismissActionIdentifier")

    /// Whether this is one of Apple's two reserved identifiers.
    public var isAppleReserved: Bool { self == .default || self == .dismiss }
}

/// The identifier pattern shared by categories and actions: `^[A-Za-z][A-Za-z0-9._-]{0,63}$`.
public enum IdentifierSyntax {
    /// The pattern, as written in the specification.
    public static let pattern = "^[A-Za-z][A-Za-z0-9._-]{0,63}$"
    /// The longest identifier allowed.
    public static let maximumLength = 64

    /// Whether `text` matches ``pattern``. Checked byte by byte: the pattern is ASCII-only.
    public static func isValid(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            count += 1
            if count > maximumLength { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                if count == 1 { return false }
            default:
                return false
            }
        }
        return count > 0
    }
}
