/// Writes Swift source line by line with four-space indentation; the generator's only output
/// primitive, so the same input always gives the same bytes.
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    /// One line at the current indentation (an empty line without spaces).
    mutating func line(_ content: String = "") {
        text += content.isEmpty ? "\n" : String(repeating: "    ", count: depth) + content + "\n"
    }

    /// `opening {`, the lines `body` writes one level deeper, then `}`.
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) throws -> Void) rethrows {
        line(opening + " {")
        depth += 1
        try body(&self)
        depth -= 1
        line(closing)
    }
}

extension String {
    /// A Swift string literal of `self`: quotes, backslashes, control characters and `\(` escaped.
    var swiftLiteral: String {
        var out = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
