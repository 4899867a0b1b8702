public import Foundation
public import JWTKit

/// The claims of a service account's JWT-bearer assertion (RFC 7523) as Google's token endpoint
/// reads them: the account (`iss`), the scopes asked for (`scope`, space-separated), the token
/// endpoint (`aud`), and when it was made and expires (`iat`, `exp`; at most an hour apart).
public struct ServiceAccountAssertion: JWTPayload, Equatable {
    public var iss: IssuerClaim
    public var scope: String
    public var aud: AudienceClaim
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim

    /// An assertion of `account` asking for `scope`, made at `issuedAt` and valid for `lifetime`.
    public init(account: ServiceAccount, scope: String, issuedAt: Date, lifetime: TimeInterval = 3600) {
        self.init(iss: account.clientEmail, scope: scope, aud: account.tokenURI, issuedAt: issuedAt, lifetime: lifetime)
    }

    /// An assertion with each claim given.
    public init(iss: String, scope: String, aud: String, issuedAt: Date, lifetime: TimeInterval = 3600) {
        self.iss = IssuerClaim(value: iss)
        self.scope = scope
        self.aud = AudienceClaim(value: [aud])
        iat = IssuedAtClaim(value: issuedAt)
        exp = ExpirationClaim(value: issuedAt.addingTimeInterval(lifetime))
    }

    /// Nothing is checked on signing or parsing: the token endpoint checks the claims against its
    /// own clock and the account it knows.
    public func verify(using algorithm: some JWTAlgorithm) throws {}
}
