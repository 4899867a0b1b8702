import Foundation

/// Base64url without padding (RFC 4648 §5), for opaque tokens that travel in URLs and cookies.
public enum Base64URL {
    /// `data` as base64url, without `=` padding.
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url `text` (padding optional); nil if it is not base64url, or not the
    /// one encoding ``encode(_:)`` gives those bytes (unused trailing bits set), so a token has
    /// exactly one spelling.
    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        let unpadded = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text
        return encode(data) == unpadded ? data : nil
    }
}
