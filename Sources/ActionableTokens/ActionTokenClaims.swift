import Foundation
import JWTKit

/// The claims of an action token: `jti`, `sub`, `cat`, optional `act`, `pld` (absent in tokens
/// of older versions), `iat`, `exp`.
///
/// Plain values rather than jwt-kit's claim types: these are decoded on every request, and a
/// `Date` claim goes through the decoder's date strategy where a number is read directly.
struct ActionTokenClaims: JWTPayload, Equatable {
    /// The notification id.
    var jti: StringClaim
    /// The user id.
    var sub: StringClaim
    /// The category id.
    var cat: String
    /// The allowed action ids; all when absent.
    var act: [String]?
    /// The payload digest (``PayloadDigest``).
    var pld: String?
    var iat: NumericDate
    var exp: NumericDate

    /// Expiry (with leeway) is checked by ``ActionTokens`` so that its error is its own.
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

/// A string claim, spelled like jwt-kit's (`.value`).
struct StringClaim: Codable, Equatable {
    var value: String

    init(value: String) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(String.self) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A JWT NumericDate (RFC 7519 §2): seconds since 1970, whole or not.
struct NumericDate: Codable, Equatable {
    var value: Date

    init(value: Date) { self.value = value }

    init(from decoder: any Decoder) throws {
        value = Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.timeIntervalSince1970)
    }
}
