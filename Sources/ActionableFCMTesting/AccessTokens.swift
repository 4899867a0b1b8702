import ActionableAPNsTesting
import ActionableFCM
import Foundation
import JWTKit

/// The stand-in's token endpoint, checked as Google's checks a service account's JWT-bearer
/// grant: an RS256 assertion signed by the account's key (`kid` its `private_key_id`), `iss` the
/// account's address, `scope` holding Firebase Messaging's, `aud` the token endpoint, `iat` not in
/// the future and `exp` after now and at most an hour after `iat`. Each grant issues a new access
/// token; the tokens it issued, until they expire or are revoked, are the only bearers
/// `messages:send` takes.
actor AccessTokens {
    /// The scope an assertion must ask for.
    static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"

    private let keys = JWTKeyCollection()
    private let keyID: String
    private let clientEmail: String?
    private let audience: String?
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date
    private var issued: [String: Date] = [:]
    private var grants = 0
    /// While set, every grant is answered 503 (a token endpoint that is down).
    private var down = false

    init(
        publicKey: Insecure.RSA.PublicKey, keyID: String, clientEmail: String?, audience: String?, lifetime: TimeInterval,
        now: @escaping @Sendable () -> Date
    ) async {
        await keys.add(rsa: publicKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        self.keyID = keyID
        self.clientEmail = clientEmail
        self.audience = audience
        self.lifetime = lifetime
        self.now = now
    }

    /// A grant's answer: an access token and its lifetime, or the OAuth error Google answers
    /// (`invalid_grant`, `invalid_request`, `unsupported_grant_type`) with a description.
    enum Grant: Equatable {
        case issued(token: String, expiresIn: Int)
        case refused(error: String, description: String)
        /// The endpoint is down (scripted): 503.
        case unavailable
    }

    /// Takes the token endpoint down (every grant answered 503) or brings it back.
    func setDown(_ isDown: Bool) { down = isDown }

    /// Answers the form `body` of a token request.
    func grant(form body: String) async -> Grant {
        if down { return .unavailable }
        let fields = Self.form(body)
        guard let grantType = fields["grant_type"] else { return .refused(error: "invalid_request", description: "grant_type is missing") }
        guard grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
            return .refused(error: "unsupported_grant_type", description: "Invalid grant_type: \(grantType)")
        }
        guard let assertion = fields["assertion"], !assertion.isEmpty else {
            return .refused(error: "invalid_request", description: "assertion is missing")
        }
        guard let header = StandInJWT.header(of: assertion), header.alg == "RS256" else {
            return .refused(error: "invalid_grant", description: "Invalid JWT: the header is not RS256")
        }
        guard header.kid == keyID else { return .refused(error: "invalid_grant", description: "Invalid JWT Signature.") }
        let claims: ServiceAccountAssertion
        do {
            claims = try await keys.verify(assertion, as: ServiceAccountAssertion.self)
        } catch {
            return .refused(error: "invalid_grant", description: "Invalid JWT Signature.")
        }
        if let clientEmail, claims.iss.value != clientEmail {
            return .refused(error: "invalid_grant", description: "Invalid JWT: iss is not the service account")
        }
        guard claims.scope.split(separator: " ").contains(Substring(Self.messagingScope)) else {
            return .refused(error: "invalid_scope", description: "the scope does not include \(Self.messagingScope)")
        }
        if let audience, !claims.aud.value.contains(where: { Self.isAudience($0, audience) }) {
            return .refused(error: "invalid_grant", description: "Invalid JWT: aud is not the token endpoint")
        }
        let now = now()
        let issuedAt = claims.iat.value
        let expires = claims.exp.value
        guard issuedAt.timeIntervalSince(now) <= 60 else {
            return .refused(error: "invalid_grant", description: "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe")
        }
        guard expires > now, expires.timeIntervalSince(issuedAt) <= 3600 else {
            return .refused(
                error: "invalid_grant", description: "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe")
        }
        grants += 1
        issued = issued.filter { $0.value > now }  // expired tokens are forgotten: a flood of grants holds no memory
        let seconds = lifetime.isFinite ? min(max(lifetime, 1), 86400) : 3600
        let token = "ya29.stand-in-\(grants)-\(UUID().uuidString.lowercased())"
        issued[token] = now.addingTimeInterval(seconds)
        return .issued(token: token, expiresIn: Int(seconds))
    }

    /// Whether `token` is an access token this endpoint issued and that is still valid.
    func isValid(_ token: String) -> Bool {
        guard let expires = issued[token] else { return false }
        return expires > now()
    }

    /// Revokes every token issued so far: the next send with one is answered 401.
    func revokeAll() { issued.removeAll() }

    /// How many grants were made.
    var grantCount: Int { grants }

    /// Whether `aud` names the token endpoint `audience`: the same URL, or — for an `audience`
    /// that is a path (a stand-in on a port chosen at start) — an https URL with that path.
    static func isAudience(_ aud: String, _ audience: String) -> Bool {
        guard audience.hasPrefix("/") else { return aud == audience }
        guard let url = URL(string: aud), url.scheme == "https", url.host != nil else { return false }
        return url.path == audience && url.query == nil
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { part in
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            guard let name = parts.first, fields[name] == nil else { continue }
            fields[name] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}
