/// A JSON value whose objects keep their keys in the order they were written.
///
/// Foundation's `JSONEncoder` offers either unspecified or alphabetical key order. The catalog
/// needs neither: a localized title's first locale is its development language, so the order of
/// a file must survive into the JSON. Reports use it for a stable, readable key order.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in the order they are written out.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let pairs):
            hasher.combine(pairs.count)
            for (key, value) in pairs {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
}

extension JSONValue {
    /// Compact JSON text (no insignificant white space), UTF-8.
    public func serialized() -> String {
        var output = ""
        write(to: &output, indent: nil, level: 0)
        return output
    }

    /// Indented JSON text (two spaces), for people to read.
    public func prettySerialized() -> String {
        var output = ""
        write(to: &output, indent: "  ", level: 0)
        return output
    }

    private func write(to output: inout String, indent: String?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            if value.isFinite {
                output += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            } else {
                output += "null"  // JSON has no infinities or NaN
            }
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let values):
            writeContainer(values, open: "[", close: "]", to: &output, indent: indent, level: level) { value, out in
                value.write(to: &out, indent: indent, level: level + 1)
            }
        case .object(let pairs):
            writeContainer(pairs, open: "{", close: "}", to: &output, indent: indent, level: level) { pair, out in
                JSONValue.writeString(pair.0, to: &out)
                out += indent == nil ? ":" : ": "
                pair.1.write(to: &out, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, indent: String?, level: Int,
        _ writeElement: (Element, inout String) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            if let indent {
                output += "\n" + String(repeating: indent, count: level + 1)
            }
            writeElement(element, &output)
        }
        if let indent { output += "\n" + String(repeating: indent, count: level) }
        output += close
    }

    /// Writes `value` as a JSON string literal, escaping what RFC 8259 requires.
    public static func writeString(_ value: String, to output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            needsEscaping = true
            break
        }
        guard needsEscaping else {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
