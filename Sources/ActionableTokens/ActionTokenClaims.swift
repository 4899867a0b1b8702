import JWTKit

/// The claims of an action token (SPEC §4).
struct ActionTokenClaims: JWTPayload, Equatable {
    /// The notification id.
    var jti: IDClaim
    /// The user id.
    var sub: SubjectClaim
    /// The category id.
    var cat: String
    /// The allowed action ids; all when absent.
    var act: [String]?
    var iat: IssuedAtClaim
    var exp: ExpirationClaim

    /// Expiry (with leeway) is checked by ``ActionTokens`` so that its error is its own.
    func verify(using algorithm: some JWTAlgorithm) throws {}
}
