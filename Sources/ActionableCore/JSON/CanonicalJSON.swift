/// JSON in the JSON Canonicalization Scheme (RFC 8785): no white space, object members sorted
/// by the UTF-16 code units of their names, strings with only the escapes JSON requires, and
/// numbers as ECMAScript prints an IEEE 754 double. Two JSON texts with the same data give the
/// same bytes, whatever key order, escapes or number spelling (`2`, `2.0`, `2e0`) they used.
public enum CanonicalJSON {
    /// `value` in canonical form.
    public static func text(of value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    /// Writes `value` in canonical form to `output`.
    public static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += ecmaScript(Double(number))
        case .double(let number): output += ecmaScript(number)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let values):
            output += "["
            for (index, element) in values.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let pairs):
            // Members sorted by their names' UTF-16 code units (RFC 8785 §3.2.3).
            output += "{"
            for (index, (key, member)) in pairs.sorted(by: { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) }).enumerated() {
                if index > 0 { output += "," }
                JSONValue.writeString(key, to: &output)
                output += ":"
                write(member, to: &output)
            }
            output += "}"
        }
    }

    /// `number` as ECMAScript's `Number.prototype.toString` prints it (ECMA-262 §7.1.12.1), which
    /// RFC 8785 adopts: the shortest digits that read back as the same double, in plain notation
    /// from 1e-6 up to 1e21 and in exponent notation outside. Infinities and NaN, which JSON
    /// cannot hold, print as `null`.
    public static func ecmaScript(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == 0 { return "0" }  // -0 too
        // Swift's description prints the shortest round-tripping digits, as ECMAScript requires;
        // only the notation differs. Split it into digits and a decimal exponent.
        var text = number.magnitude.description
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        let point = text.firstIndex(of: ".")
        let integerPart = point.map { String(text[..<$0]) } ?? text
        let fraction = point.map { String(text[text.index(after: $0)...]) } ?? ""
        var digits = Array(integerPart + fraction)
        // n: the position of the decimal point relative to the digits (value = 0.d1d2… × 10^n).
        var n = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            n -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        let k = digits.count
        let sign = number < 0 ? "-" : ""
        let all = String(digits)
        if k <= n && n <= 21 { return sign + all + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return sign + String(digits[..<n]) + "." + String(digits[n...]) }
        if -6 < n && n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + all }
        let power = n - 1
        let shownExponent = (power >= 0 ? "+" : "-") + String(power.magnitude)
        if k == 1 { return sign + all + "e" + shownExponent }
        return sign + String(digits[0]) + "." + String(digits[1...]) + "e" + shownExponent
    }
}
