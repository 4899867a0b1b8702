import Foundation

/// What a stand-in reads of a JWT before it checks the signature: its header (to know the `alg`
/// and the `kid` whose key should have signed it).
public enum StandInJWT {
    /// A JWT's header, as far as a stand-in reads it.
    public struct Header: Decodable, Sendable, Equatable {
        public var alg: String?
        public var kid: String?
    }

    /// The header of `token`; `nil` when it is not base64url JSON.
    public static func header(of token: String) -> Header? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        var base64 = first.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: data)
    }
}
