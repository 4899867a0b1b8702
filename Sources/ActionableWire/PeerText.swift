/// Text a peer (APNs, FCM, an upstream, a token endpoint) wrote, made safe to log and store: at
/// most `limit` characters, every control character, line and paragraph separator and backslash
/// written as an escape, so that an answer of `"bad\n… critical …"` stays on its own log line
/// and reads as what the peer sent.
public enum PeerText {
    /// `text` cut to `limit` characters, with `\` as `\\`, newline, return and tab as `\n`, `\r`
    /// and `\t`, and any other control character (C0, DEL, C1), U+2028/U+2029, a bidirectional
    /// control or a zero-width character as `\u{XX}`.
    public static func printable(_ text: some StringProtocol, limit: Int = 200) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            // Controls, line and paragraph separators, and what reorders or hides text on a terminal
            // (bidirectional embeddings, overrides and isolates; zero-width characters; the BOM).
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{200B}"..."\u{200F}", "\u{202A}"..."\u{202E}",
                "\u{2066}"..."\u{2069}", "\u{FEFF}":
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
