import ActionableCore
import Crypto
import Foundation
import Testing

@testable import ActionableTokens

/// The app's bearer JWT: it must name the server's audience and carry exp; nbf and iat are
/// checked when present, each with 30 s of skew.
struct AppTokensTests {
    static let key = try! ActionTokenKey(parsing: "app=app-secret-0123456789abcdef0123456789")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A compact HS256 JWS with `claims`, signed with `key`'s secret: tokens a login service
    /// (not this package) might mint, well-formed or not.
    static func jwt(_ claims: String, key: ActionTokenKey = key) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"HS256","kid":"app","typ":"JWT"}"#.utf8))
        let body = Base64URL.encode(Data(claims.utf8))
        let secret = SymmetricKey(data: Data("app-secret-0123456789abcdef0123456789".utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(header).\(body)".utf8), using: secret)
        return "\(header).\(body).\(Base64URL.encode(Data(mac)))"
    }

    @Test func aTokenMintedForTheAudienceVerifies() async throws {
        let tokens = await AppTokens(keys: [Self.key])
        let token = try await tokens.mint(user: "alice", keyID: "app", now: now)
        #expect(try await tokens.user(of: token, now: now) == "alice")
        // Another server's audience does not accept it.
        let other = await AppTokens(keys: [Self.key], audience: "billing")
        #expect(await failure { _ = try await other.user(of: token, now: now) }?.code == .wrongAudience)
    }

    @Test func audienceExpiryNotBeforeAndIssuedAtAreChecked() async throws {
        let tokens = await AppTokens(keys: [Self.key])
        let t = Int(now.timeIntervalSince1970)
        let cases: [(String, ActionTokenError.Code?)] = [
            (#"{"sub":"alice","aud":"actionable","exp":\#(t + 60)}"#, nil),
            (#"{"sub":"alice","aud":["other","actionable"],"exp":\#(t + 60)}"#, nil),
            (#"{"sub":"alice","exp":\#(t + 60)}"#, .wrongAudience),
            (#"{"sub":"alice","aud":"other","exp":\#(t + 60)}"#, .wrongAudience),
            (#"{"sub":"alice","aud":"actionable"}"#, .malformed),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t - 31)}"#, .expired),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t - 29)}"#, nil),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t + 60),"nbf":\#(t + 31)}"#, .notYetValid),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t + 60),"nbf":\#(t + 29)}"#, nil),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t + 60),"iat":\#(t + 31)}"#, .notYetValid),
            (#"{"sub":"alice","aud":"actionable","exp":\#(t + 60),"iat":\#(t - 3600)}"#, nil),
        ]
        for (claims, expected) in cases {
            let code = await failure { _ = try await tokens.user(of: Self.jwt(claims), now: now) }?.code
            #expect(code == expected, "\(claims)")
        }
    }

    /// An action token (a different kind of JWT) never passes as an app JWT, even if a
    /// deployment used one secret for both: it names no audience. (Start-up refuses that
    /// deployment anyway; see the configuration tests.)
    @Test func anActionTokenIsNotAnAppToken() async throws {
        let shared = try ActionTokenKey(parsing: "app=app-secret-0123456789abcdef0123456789")
        let actionToken = try await ActionTokens(keys: [shared]).mint(
            user: "alice", notificationID: "n-1", category: "invite", payload: nil, lifetime: 7 * 86400, now: now)
        let appTokens = await AppTokens(keys: [shared])
        #expect(await failure { _ = try await appTokens.user(of: actionToken, now: now) }?.code == .wrongAudience)
        #expect(shared.hasSameSecret(as: Self.key))
        #expect(!shared.hasSameSecret(as: try ActionTokenKey(parsing: "app=another-secret-0123456789abcdef012345")))
    }
}
