import Foundation
import JWTKit

/// Verifies the app's own bearer JWT (HS256, with `kid`), when a deployment asks for it on top
/// of action tokens: its `sub` must be the action token's user.
public struct AppTokens: Sendable {
    private let collection: JWTKeyCollection

    private struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// Verifies with `keys` (any of them).
    public init(keys: [ActionTokenKey]) async {
        let collection = JWTKeyCollection()
        for key in keys {
            await collection.add(hmac: HMACKey(from: key.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
        }
        self.collection = collection
    }

    /// The authenticated user (`sub`) of `token`, checked for signature and expiry (30 s leeway).
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
        guard claims.exp.value.addingTimeInterval(ActionTokens.leeway) >= now else {
            throw ActionTokenError(.expired, "the app's bearer token expired")
        }
        return claims.sub.value
    }

    /// A token for `user` (for tests and tools; apps get theirs from your login service).
    public func mint(user: String, keyID: String, lifetime: TimeInterval = 3600) async throws -> String {
        try await collection.sign(
            Claims(sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(lifetime))),
            kid: JWKIdentifier(string: keyID))
    }
}
