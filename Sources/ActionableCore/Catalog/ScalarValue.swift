/// A YAML scalar typed by the YAML 1.2 core schema.
///
/// The loader composes nodes without Yams' resolver (no regular expressions per scalar), so
/// it types plain scalars itself: only plain (unquoted) scalars can be null, booleans or numbers;
/// quoted and block scalars are always strings. `yes`/`no`/`on`/`off` are strings, as in YAML 1.2.
enum ScalarValue: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)

    init(_ scalar: YAMLScalar) {
        let text = scalar.string
        guard scalar.isPlain else {
            self = .string(text)
            return
        }
        // Only plain scalars starting like a null, a boolean or a number can be one; most are
        // words, which this settles with one byte instead of sixteen comparisons.
        switch text.utf8.first ?? UInt8(ascii: "~") {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            self = .string(text)
            return
        }
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null
        case "true", "True", "TRUE": self = .bool(true)
        case "false", "False", "FALSE": self = .bool(false)
        default:
            if let value = ScalarValue.integer(text) {
                self = .int(value)
            } else if let value = ScalarValue.float(text) {
                self = .float(value)
            } else {
                self = .string(text)
            }
        }
    }

    /// The name of the type, for messages ("found a boolean").
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .float: return "a number"
        case .string: return "a string"
        }
    }

    private static func integer(_ text: String) -> Int? {
        guard let first = text.utf8.first else { return nil }
        let isDigitStart = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        guard isDigitStart || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") else { return nil }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        guard text.utf8.dropFirst().allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int(text)
    }

    private static func float(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        let allowed = text.utf8.allSatisfy {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "+")
        }
        guard allowed, text.utf8.contains(where: { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Double(text)
    }
}
