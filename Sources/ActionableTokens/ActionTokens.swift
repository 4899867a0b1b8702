public import ActionableCore
import Crypto
public import Foundation
import JWTKit
import Synchronization

/// Mints and verifies action tokens (docs/http-api.md, "Action tokens"): compact JWS, HS256, with a `kid` header.
///
/// Several keys verify at once, so keys can be rotated; the first signs. Verification allows
/// 30 seconds of clock skew, and compares MACs in constant time (swift-crypto's
/// `HMAC.isValidAuthenticationCode`). A token is one spelling only: unpadded base64url segments,
/// a 43-character signature with no stray bits, so no second string verifies for the same MAC.
///
/// ```swift
/// let tokens = try await ActionTokens(keys: [ActionTokenKey(parsing: "k1=…32+ bytes…")])
/// let digest = PayloadDigest(payload: [("inviteId", .string("42"))], schema: invite.payload)
/// let token = try await tokens.mint(user: "alice", notificationID: "n-1", category: "invite", payload: digest)
/// let verified = try await tokens.verify(token)
/// try verified.authorize(category: "invite", action: "accept")
/// ```
public struct ActionTokens: Sendable {
    /// Clock skew allowed on `exp` and `iat`.
    public static let leeway: TimeInterval = 30
    /// The longest token read; anything longer is malformed without being parsed.
    public static let maximumTokenLength = 4096

    /// Signs (jwt-kit's key collection, an actor: minting is not on a hot path).
    private let collection: JWTKeyCollection
    /// Verifies: each key by its id. A tap's token is checked with swift-crypto's HMAC-SHA256
    /// (a constant-time comparison) on the accept path's own thread, without the hop onto the
    /// collection's actor and the second reading of the header that jwt-kit's `verify` makes —
    /// about a tenth of an accept's CPU (BENCHMARKS.md, "The accept path by its CPU").
    private let verifyingKeys: [String: SymmetricKey]
    /// Header segments already read and accepted, with the key id each names: tokens from one
    /// issuer repeat the same header, which then needs no base64 and JSON decoding. Only headers
    /// naming HS256 and a configured key are kept, and at most ``headerCacheLimit`` of them.
    private let knownHeaders = HeaderCache()
    static let headerCacheLimit = 64

    /// The id of the key that signs.
    public let signingKeyID: String

    /// Uses `keys`; the first signs, all verify.
    public init(keys: [ActionTokenKey]) async throws(ActionTokenKeyError) {
        guard let first = keys.first else { throw ActionTokenKeyError("at least one token key is needed") }
        guard Set(keys.map(\.id)).count == keys.count else {
            throw ActionTokenKeyError("token key ids must be unique")
        }
        let collection = JWTKeyCollection()
        for key in keys {
            await collection.add(hmac: HMACKey(from: key.secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: key.id))
        }
        self.collection = collection
        self.verifyingKeys = Dictionary(uniqueKeysWithValues: keys.map { ($0.id, SymmetricKey(data: $0.secret)) })
        self.signingKeyID = first.id
    }

    /// A token for `user` answering notification `notificationID` of `category`, bound to its
    /// custom payload by `payload` (the `pld` claim), valid for `lifetime`, allowing only
    /// `actions` when given.
    ///
    /// The server refuses a tap whose payload does not match `payload`, and, unless it runs with
    /// `--accept-unbound-payloads`, a token minted without one (`payload: nil`).
    public func mint(
        user: String, notificationID: String, category: CategoryID, actions: [ActionID]? = nil, payload: PayloadDigest?,
        lifetime: TimeInterval = 7 * 24 * 3600, now: Date = Date()
    ) async throws -> String {
        // NumericDate in whole seconds, as most JWT consumers expect.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = ActionTokenClaims(
            jti: StringClaim(value: notificationID), sub: StringClaim(value: user), cat: category.rawValue,
            act: actions?.map(\.rawValue), pld: payload?.value, iat: NumericDate(value: now),
            exp: NumericDate(value: now.addingTimeInterval(lifetime)))
        return try await collection.sign(claims, kid: JWKIdentifier(string: signingKeyID))
    }

    /// Verifies `token`'s header, signature and lifetime at `now`.
    public func verify(_ token: String, now: Date = Date()) async throws(ActionTokenError) -> ActionToken {
        guard !token.isEmpty else { throw ActionTokenError(.missing, "the action token is empty") }
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw ActionTokenError(.malformed, "the action token is longer than \(Self.maximumTokenLength) bytes")
        }
        // One spelling: unpadded base64url and two dots, nothing else (Foundation's decoder would
        // also take `+`, `/`, `=` and stray bits, so several strings would verify for one MAC).
        guard token.utf8.allSatisfy(Self.isTokenByte) else {
            throw ActionTokenError(.malformed, "the action token is not a compact JWS of unpadded base64url segments")
        }
        let segments = token.utf8.split(separator: UInt8(ascii: "."), maxSplits: 3, omittingEmptySubsequences: false)
        guard segments.count == 3, segments.allSatisfy({ $0.count % 4 != 1 }) else {
            throw ActionTokenError(.malformed, "the action token is not a compact JWS (header.payload.signature)")
        }
        let header = Substring(segments[0])
        let kid: String
        let checkedNow: Bool
        if let known = knownHeaders.keyID(of: header) {
            kid = known
            checkedNow = false
        } else {
            let parsed = try Self.parseHeader(header)
            guard parsed.alg == "HS256" else {
                throw ActionTokenError(.malformed, "the action token's algorithm must be HS256, found \(parsed.alg?.prefix(16) ?? "none")")
            }
            guard let named = parsed.kid else { throw ActionTokenError(.malformed, "the action token has no kid header") }
            kid = named
            checkedNow = true
        }
        guard let key = verifyingKeys[kid] else {
            throw ActionTokenError(.unknownKey, "the action token's key id is not configured (rotated out?)")
        }
        // An HS256 MAC is 32 bytes: 43 characters whose last carries 4 bits and two zero bits.
        let signatureText = segments[2]
        guard signatureText.count == 43, let last = signatureText.last, Self.base64URLValue(last) & 0x3 == 0,
            let signature = Data(base64URL: Substring(signatureText))
        else { throw ActionTokenError(.badSignature, "the action token's signature does not verify") }
        // The MAC first: nothing of the payload is read before it is known to be ours.
        let signed = token.utf8[token.utf8.startIndex..<segments[1].endIndex]
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(signed), using: key) else {
            throw ActionTokenError(.badSignature, "the action token's signature does not verify")
        }
        // Only a header that came with a valid MAC is remembered: unsigned headers cannot fill the cache.
        if checkedNow { knownHeaders.insert(header, keyID: kid, limit: Self.headerCacheLimit) }
        guard let payload = Data(base64URL: Substring(segments[1])),
            let claims = try? JSONDecoder().decode(ActionTokenClaims.self, from: payload)
        else { throw ActionTokenError(.malformed, "the action token is not a valid JWT with the expected claims") }
        guard claims.exp.value.addingTimeInterval(Self.leeway) >= now else {
            throw ActionTokenError(.expired, "the action token expired at \(claims.exp.value)")
        }
        guard claims.iat.value.addingTimeInterval(-Self.leeway) <= now else {
            throw ActionTokenError(.notYetValid, "the action token is issued in the future (\(claims.iat.value))")
        }
        return ActionToken(
            notificationID: claims.jti.value, user: claims.sub.value, category: CategoryID(claims.cat),
            actions: claims.act?.map { ActionID($0) }, payload: claims.pld.map(PayloadDigest.init(claim:)), issuedAt: claims.iat.value,
            expiresAt: claims.exp.value)
    }

    /// A byte of base64url, or a segment's dot.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default: return false
        }
    }

    /// The 6-bit value of a base64url character (already known to be one).
    private static func base64URLValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        default: return 63
        }
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    /// The JOSE header, read before verification so that a missing `kid` or another algorithm
    /// is refused instead of falling back to a default key.
    private static func parseHeader(_ segment: Substring) throws(ActionTokenError) -> Header {
        guard let data = Data(base64URL: segment), let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw ActionTokenError(.malformed, "the action token is not a compact JWS (header.payload.signature)")
        }
        return header
    }
}

/// The header segments ``ActionTokens`` has already checked, with the key id each names.
final class HeaderCache: Sendable {
    private let segments = Mutex([Substring: String]())

    func keyID(of segment: Substring) -> String? {
        segments.withLock { $0[segment] }
    }

    func insert(_ segment: Substring, keyID: String, limit: Int) {
        let segment = Substring(String(segment))  // not the whole token's storage
        segments.withLock { if $0.count < limit { $0[segment] = keyID } }
    }
}

extension Data {
    /// Decodes unpadded base64url (RFC 4648 §5).
    init?(base64URL text: Substring) {
        var bytes = text.utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        self.init(base64Encoded: Data(bytes))
    }
}
