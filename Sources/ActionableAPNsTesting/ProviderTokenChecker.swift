import Foundation
import JWTKit

/// Checks provider tokens as APNs does: an ES256 signature by a known `kid`, `iss` the team,
/// `iat` no more than an hour old (and not in the future), and a key's token not replaced by a
/// newer one within 20 minutes of the last (`TooManyProviderTokenUpdates`).
///
/// A token's signature is checked once: the few tokens that passed are remembered (as APNs keeps
/// a connection's token), and only their age is checked again on each request.
actor ProviderTokenChecker {
    /// Tokens whose signature, `kid` and team passed, with their `kid` and `iat`.
    private var verified: [String: (kid: String, issued: Date)] = [:]
    private let keys: JWTKeyCollection
    private let known: Set<String>
    private let teamID: String?
    private let now: @Sendable () -> Date
    /// The newest `iat` seen per `kid`.
    private var newest: [String: Date] = [:]

    init(keys: [String: ES256PublicKey], teamID: String?, now: @escaping @Sendable () -> Date) async {
        let collection = JWTKeyCollection()
        for (kid, key) in keys { await collection.add(ecdsa: key, kid: JWKIdentifier(string: kid)) }
        self.keys = collection
        known = Set(keys.keys)
        self.teamID = teamID
        self.now = now
    }

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// `nil` when `token` passes; otherwise the status and reason APNs answers.
    func check(_ token: String) async -> (status: Int, reason: String)? {
        if let known = verified[token] { return checkTime(kid: known.kid, issued: known.issued) }
        guard let header = StandInJWT.header(of: token), header.alg == "ES256" else { return (403, "InvalidProviderToken") }
        guard let kid = header.kid, known.contains(kid) else { return (403, "InvalidProviderToken") }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            return (403, "InvalidProviderToken")
        }
        if let teamID, claims.iss.value != teamID { return (403, "InvalidProviderToken") }
        if verified.count >= 64 { verified.removeAll() }
        verified[token] = (kid, claims.iat.value)
        return checkTime(kid: kid, issued: claims.iat.value)
    }

    /// The age and update-rate checks of a token whose signature passed.
    private func checkTime(kid: String, issued: Date) -> (status: Int, reason: String)? {
        let age = now().timeIntervalSince(issued)
        guard age <= 3600 else { return (403, "ExpiredProviderToken") }
        guard age >= -60 else { return (403, "InvalidProviderToken") }
        if let last = newest[kid], issued > last {
            guard issued.timeIntervalSince(last) >= 20 * 60 else { return (429, "TooManyProviderTokenUpdates") }
        }
        if issued > (newest[kid] ?? .distantPast) { newest[kid] = issued }
        return nil
    }
}
