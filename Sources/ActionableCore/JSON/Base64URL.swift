public import Foundation

/// Base64url without padding (RFC 4648 §5), for opaque tokens that travel in URLs and cookies.
///
/// Foundation's base64 does the encoding; the alphabet's two differing characters and the
/// padding are mapped byte by byte (string replacement cost more than the hashing around it, on
/// the path of every tap: the `pld` digest).
public enum Base64URL {
    /// `data` as base64url, without `=` padding.
    public static func encode(_ data: Data) -> String {
        let base64 = data.base64EncodedData()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(base64.count)
        for byte in base64 where byte != UInt8(ascii: "=") {
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: "-") : byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of base64url `text` (padding optional); nil if it is not base64url, or not the
    /// one encoding ``encode(_:)`` gives those bytes (unused trailing bits set), so a token has
    /// exactly one spelling.
    public static func decode(_ text: String) -> Data? {
        var base64: [UInt8] = []
        base64.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            base64.append(byte == UInt8(ascii: "-") ? UInt8(ascii: "+") : byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte)
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(base64)) else { return nil }
        let unpadded = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text
        return encode(data) == unpadded ? data : nil
    }
}
