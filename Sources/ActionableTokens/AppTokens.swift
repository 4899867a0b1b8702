public import Foundation
import JWTKit

/// Verifies the app's own bearer JWT (HS256, with `kid`), when a deployment asks for it on top
/// of action tokens: its `sub` must be the action token's user.
///
/// A token must name this server in `aud` (``audience``, `actionable` by default) and carry
/// `exp`; `nbf` and `iat` are checked when present. All times allow 30 s of clock skew. The
/// audience keeps a JWT minted for another service with the same key — or an action token,
/// should a deployment reuse its key — from passing as the user's app token.
public struct AppTokens: Sendable {
    private let collection: JWTKeyCollection
    /// The `aud` every token must name.
    public let audience: String

    private struct Claims: JWTPayload {
        var sub: SubjectClaim
        var aud: AudienceClaim?
        var exp: ExpirationClaim?
        var nbf: NotBeforeClaim?
        var iat: IssuedAtClaim?
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// Verifies with `keys` (any of them), for tokens whose `aud` names `audience`.
    public init(keys: [ActionTokenKey], audience: String = "actionable") async {
        let collection = JWTKeyCollection()
        for key in keys {
            await collection.add(hmac: HMACKey(from: key.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
        }
        self.collection = collection
        self.audience = audience
    }

    /// The authenticated user (`sub`) of `token`, checked for signature, audience and times.
    public func user(of token: String, now: Date = Date()) async throws(ActionTokenError) -> String {
        guard token.utf8.count <= ActionTokens.maximumTokenLength else {
            throw ActionTokenError(.malformed, "the app token is too long")
        }
        let claims: Claims
        do {
            claims = try await collection.verify(token, as: Claims.self)
        } catch {
            throw ActionTokenError(.badSignature, "the app's bearer token does not verify")
        }
        guard let audiences = claims.aud?.value, audiences.contains(audience) else {
            throw ActionTokenError(.wrongAudience, "the app's bearer token must name \"\(audience)\" in aud")
        }
        guard let expiry = claims.exp?.value else {
            throw ActionTokenError(.malformed, "the app's bearer token has no exp")
        }
        guard expiry.addingTimeInterval(ActionTokens.leeway) >= now else {
            throw ActionTokenError(.expired, "the app's bearer token expired")
        }
        if let notBefore = claims.nbf?.value, notBefore.addingTimeInterval(-ActionTokens.leeway) > now {
            throw ActionTokenError(.notYetValid, "the app's bearer token is not valid before \(notBefore) (nbf)")
        }
        if let issued = claims.iat?.value, issued.addingTimeInterval(-ActionTokens.leeway) > now {
            throw ActionTokenError(.notYetValid, "the app's bearer token is issued in the future (iat \(issued))")
        }
        return claims.sub.value
    }

    /// A token for `user` naming ``audience`` (for tests and tools; apps get theirs from your
    /// login service, which must set the same `aud`).
    public func mint(user: String, keyID: String, lifetime: TimeInterval = 3600, now: Date = Date()) async throws -> String {
        try await collection.sign(
            Claims(
                sub: SubjectClaim(value: user), aud: AudienceClaim(value: [audience]),
                exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)), iat: IssuedAtClaim(value: now)),
            kid: JWKIdentifier(string: keyID))
    }
}
