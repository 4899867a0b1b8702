import ActionableWire
public import AsyncHTTPClient
public import Foundation
import JWTKit
import NIOCore
import NIOHTTP1

/// The OAuth 2 access token every send to FCM carries, got with the service account's JWT-bearer
/// grant: an RS256 assertion (`kid` the key's id, `iss` the account, `scope` Firebase Messaging's,
/// `aud` the token endpoint, an hour long) posted to `token_uri`.
///
/// One token is shared by every send, and renewed before it expires (five minutes before, or at
/// half its life when that is shorter); concurrent sends that find it due share one renewal. A
/// token FCM refused (401) is renewed at most once for the sends that carried it.
public actor AccessToken {
    /// The scope the assertion asks for.
    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"

    private let account: ServiceAccount
    private let keys: JWTKeyCollection
    private let client: HTTPClient
    private let timeout: Duration
    private let now: @Sendable () -> Date
    private var current: (token: String, renewAt: Date, expiresAt: Date)?
    /// When a failed grant may be tried again (sends until then fail fast, or keep the old token).
    private var nextGrant = Date.distantPast
    private var renewal: Task<String, any Error>?
    /// How many tokens were got (for tests and the log).
    public private(set) var grants = 0

    /// A token for `account`, got through `client`, each grant within `timeout`.
    public init(
        account: ServiceAccount, client: HTTPClient, timeout: Duration = .seconds(10), now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        let key: Insecure.RSA.PrivateKey
        do {
            key = try Insecure.RSA.PrivateKey(pem: account.privateKey)
        } catch {
            throw ServiceAccountError("private_key is not an RSA private key in PEM: \(error)")
        }
        keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: account.privateKeyID))
        self.account = account
        self.client = client
        self.timeout = timeout
        self.now = now
    }

    /// The token to send with: the current one, or a new one when it is due.
    public func token() async throws -> String {
        let now = now()
        if let current, current.renewAt > now { return current.token }
        // A renewal that failed a moment ago is not tried again at once: the token, while it
        // lasts, still serves.
        if nextGrant > now {
            if let current, current.expiresAt > now { return current.token }
            throw ServiceAccountError("the last grant failed; the next is tried after \(nextGrant)")
        }
        do {
            return try await renew()
        } catch {
            if let current, current.expiresAt > self.now() { return current.token }
            throw error
        }
    }

    /// FCM refused `token` (401): the next ``token()`` gets a new one, unless another send
    /// renewed it already.
    public func refused(_ token: String) {
        if current?.token == token { current = nil }
    }

    private func renew() async throws -> String {
        if let renewal { return try await renewal.value }
        let task = Task {
            do {
                return try await self.grant()
            } catch {
                self.failedGrant()
                throw error
            }
        }
        renewal = task
        defer { renewal = nil }
        return try await task.value
    }

    /// Seconds a failed grant waits before the next.
    static let pauseAfterFailure: TimeInterval = 5

    private func failedGrant() { nextGrant = now().addingTimeInterval(Self.pauseAfterFailure) }

    /// Whether `token` may go in an `Authorization: Bearer` header (RFC 6750's b64token).
    static func isBearerToken(_ token: String) -> Bool {
        guard token.utf8.count <= 4096 else { return false }
        let significant = token.reversed().drop { $0 == "=" }  // `=` only as trailing padding
        return !significant.isEmpty && significant.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~+/".contains($0)) }
    }

    private func grant() async throws -> String {
        let issued = now()
        let assertion = try await keys.sign(
            ServiceAccountAssertion(account: account, scope: Self.scope, issuedAt: issued),
            kid: JWKIdentifier(string: account.privateKeyID))
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
        let client = self.client
        let prepared = request
        let limit = timeout
        // The deadline covers the answer whole, head and body: a token endpoint that stalls fails
        // the grant (the sends that waited on it are retried), never holds them.
        let (status, body) = try await withDeadline(limit, what: "the token endpoint's answer") {
            let response = try await client.execute(prepared, timeout: .nanoseconds(limit.saturatingNanoseconds))
            // A token endpoint's answer is small: past 64 KiB it is not one.
            let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer()
            return (response.status, body)
        }
        let document = try? JSONDecoder().decode(TokenDocument.self, from: Data(body.readableBytesView))
        guard status == .ok, let token = document?.accessToken, Self.isBearerToken(token) else {
            let reason = document?.errorDescription ?? document?.error ?? "HTTP \(status.code)"
            throw ServiceAccountError("the token endpoint refused the service account's grant: \(PeerText.printable(reason))")
        }
        // A lifetime Google's endpoint would not give is held within a minute and an hour (it
        // issues 3599 s); a token that dies sooner is renewed on its 401.
        let offered: Double? = document?.expiresIn
        let lifetime: TimeInterval = offered.flatMap { $0.isFinite ? Swift.min(Swift.max($0, 60), 3600) : nil } ?? 60
        let margin: TimeInterval = Swift.min(300, lifetime / 2)
        current = (token, issued.addingTimeInterval(lifetime - margin), issued.addingTimeInterval(lifetime))
        nextGrant = .distantPast
        grants += 1
        return token
    }

    struct TokenDocument: Decodable {
        var accessToken: String?
        var expiresIn: Double?
        var error: String?
        var errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case error
            case errorDescription = "error_description"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try? container.decodeIfPresent(String.self, forKey: .accessToken)
            expiresIn = try? container.decodeIfPresent(Double.self, forKey: .expiresIn)
            error = try? container.decodeIfPresent(String.self, forKey: .error)
            errorDescription = try? container.decodeIfPresent(String.self, forKey: .errorDescription)
        }
    }
}
