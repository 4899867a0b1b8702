/// Text for XML and for markup that follows its rules (SVG in the admin page, JUnit reports).
package enum XMLText {
    /// `text` escaped for element content and quoted attribute values alike: `&`, `<`, `>`, `"`
    /// and `'` as entities; the characters XML 1.0 forbids (controls other than tab, newline and
    /// carriage return, U+FFFE, U+FFFF) dropped, since no escape can carry them.
    package static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }
}
