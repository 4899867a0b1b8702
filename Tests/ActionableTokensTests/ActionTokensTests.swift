import ActionableCore
import ActionableTokens
import Foundation
import Testing

struct ActionTokensTests {
    static let old = try! ActionTokenKey(parsing: "old=0123456789abcdef0123456789abcdef")
    static let new = try! ActionTokenKey(parsing: "new=fedcba9876543210fedcba9876543210")
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aMintedTokenVerifiesWithItsClaims() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let text = try await tokens.mint(
            user: "alice", notificationID: "n-1", category: "invite",
            actions: ["accept", "decline"], payload: PayloadDigest(canonicalJSON: #"{"inviteId":"42"}"#), lifetime: 3600, now: now)
        let token = try await tokens.verify(text, now: now)
        #expect(token.user == "alice")
        #expect(token.notificationID == "n-1")
        #expect(token.category == "invite")
        #expect(token.actions == ["accept", "decline"])
        #expect(token.payload == PayloadDigest(canonicalJSON: #"{"inviteId":"42"}"#))
        #expect(token.expiresAt == now.addingTimeInterval(3600))
        // The header names the signing key.
        let header = String(text.split(separator: ".")[0])
        let json = try #require(Data(base64Encoded: header + String(repeating: "=", count: (4 - header.count % 4) % 4)))
        #expect(String(decoding: json, as: UTF8.self).contains("\"kid\":\"new\""))
    }

    @Test func rotationVerifiesOldTokensAndSignsWithTheFirstKey() async throws {
        let before = try await ActionTokens(keys: [Self.old])
        let oldToken = try await before.mint(user: "u", notificationID: "n", category: "c", payload: nil, now: now)
        let during = try await ActionTokens(keys: [Self.new, Self.old])
        #expect(during.signingKeyID == "new")
        #expect(try await during.verify(oldToken, now: now).user == "u")
        let after = try await ActionTokens(keys: [Self.new])
        #expect(await failure { _ = try await after.verify(oldToken, now: now) }?.code == .unknownKey)
    }

    @Test func forgedTokensAreRefusedEachWithItsOwnError() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let good = try await tokens.mint(user: "alice", notificationID: "n", category: "invite", payload: nil, now: now)
        let parts = good.split(separator: ".").map(String.init)

        // Signed with another secret under the same key id.
        let impostorKey = try ActionTokenKey(parsing: "new=this-is-not-the-real-secret-at-all!!")
        let impostor = try await ActionTokens(keys: [impostorKey]).mint(
            user: "alice", notificationID: "n",
            category: "invite", payload: nil, now: now)
        #expect(await failure { _ = try await tokens.verify(impostor, now: now) }?.code == .badSignature)

        // Claims changed after signing (sub: alice -> mallory).
        let claims = try #require(Data(base64URL: parts[1]))
        let forged = String(decoding: claims, as: UTF8.self).replacingOccurrences(of: "alice", with: "mallory")
        let tampered = [parts[0], Data(forged.utf8).base64URL, parts[2]].joined(separator: ".")
        #expect(await failure { _ = try await tokens.verify(tampered, now: now) }?.code == .badSignature)

        // alg: none with no signature; another algorithm; no kid.
        for header in [#"{"alg":"none","kid":"new"}"#, #"{"alg":"HS512","kid":"new"}"#, #"{"alg":"HS256"}"#] {
            let token = [Data(header.utf8).base64URL, parts[1], header.contains("none") ? "" : parts[2]].joined(separator: ".")
            #expect(await failure { _ = try await tokens.verify(token, now: now) }?.code == .malformed, "\(header)")
        }
        // Not a JWT at all, and hostile sizes.
        for text in ["garbage", "a.b", "a.b.c.d", "!!!.###.$$$", String(repeating: "a", count: 5000), "\u{0}.\u{0}.\u{0}"] {
            #expect(await failure { _ = try await tokens.verify(text, now: now) }?.code == .malformed)
        }
        #expect(await failure { _ = try await tokens.verify("", now: now) }?.code == .missing)
        #expect(await failure { _ = try await tokens.verify(good, now: now) } == nil)
    }

    /// One token has one spelling: the same MAC re-encoded (`+`/`/`, padding, stray low bits, a
    /// signature cut or lengthened) never verifies, and nothing past 4096 bytes is read.
    @Test func noSecondSpellingOfATokenVerifies() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let good = try await tokens.mint(user: "alice", notificationID: "n", category: "invite", payload: nil, now: now)
        let parts = good.split(separator: ".").map(String.init)
        let signature = parts[2]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let lastCharacter = try #require(signature.last)
        let lastValue = try #require(alphabet.firstIndex(of: lastCharacter))
        let strayBits = String(signature.dropLast()) + String(alphabet[lastValue | 1])
        let variants = [
            good + "=", good + "====", [parts[0], parts[1], signature + "="].joined(separator: "."),
            good.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/"),
            [parts[0], parts[1], strayBits].joined(separator: "."),
            [parts[0], parts[1], String(signature.prefix(22))].joined(separator: "."),
            [parts[0], parts[1], signature + "AA"].joined(separator: "."), [parts[0], parts[1], ""].joined(separator: "."),
            [parts[0] + "=", parts[1], signature].joined(separator: "."),
            good + String(repeating: "A", count: 4097 - good.utf8.count),
        ]
        for variant in variants where variant != good {
            #expect(await failure { _ = try await tokens.verify(variant, now: now) } != nil, "\(variant)")
        }
        #expect(await failure { _ = try await tokens.verify(good, now: now) } == nil)
    }

    /// A token whose header names a configured key but was signed with another key's secret
    /// fails, whether or not its header is already known; unsigned headers never fill the cache.
    @Test func aHeaderIsTrustedOnlyWithItsOwnKeysMAC() async throws {
        let tokens = try await ActionTokens(keys: [Self.new, Self.old])
        let real = try await ActionTokens(keys: [Self.old])
        let oldToken = try await real.mint(user: "alice", notificationID: "n", category: "invite", payload: nil, now: now)
        #expect(try await tokens.verify(oldToken, now: now).user == "alice")  // the "old" header is now known
        let newSecret = try ActionTokenKey(parsing: "old=fedcba9876543210fedcba9876543210")  // "old", with new's secret
        let impostor = try await ActionTokens(keys: [newSecret]).mint(
            user: "mallory", notificationID: "n2", category: "invite", payload: nil, now: now)
        #expect(await failure { _ = try await tokens.verify(impostor, now: now) }?.code == .badSignature)
        // 100 headers that name a key but come with no valid MAC: none is remembered, so the real
        // header still verifies (and a forged MAC under any of them still fails).
        let parts = oldToken.split(separator: ".").map(String.init)
        for index in 0..<100 {
            let header = Data(#"{"alg":"HS256","kid":"new","n":\#(index)}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let forged = [header, parts[1], parts[2]].joined(separator: ".")
            #expect(await failure { _ = try await tokens.verify(forged, now: now) }?.code == .badSignature)
        }
        #expect(try await tokens.verify(oldToken, now: now).user == "alice")
    }

    /// A header seen in a valid token is not parsed again; everything else is still checked.
    @Test func aKnownHeaderSkipsNoCheckButItsOwnParse() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let good = try await tokens.mint(user: "alice", notificationID: "n", category: "invite", payload: nil, now: now)
        #expect(try await tokens.verify(good, now: now).user == "alice")  // its header is now known
        let parts = good.split(separator: ".").map(String.init)
        let otherSignature = String(parts[2].reversed())
        let cases: [(String, ActionTokenError.Code)] = [
            ([parts[0], parts[1], otherSignature].joined(separator: "."), .badSignature),
            ([parts[0], parts[1]].joined(separator: "."), .malformed),
            ([parts[0], "", parts[2]].joined(separator: "."), .badSignature),  // the MAC is checked first
            ([parts[0], parts[1], parts[2], "x"].joined(separator: "."), .malformed),
        ]
        for (token, code) in cases {
            #expect(await failure { _ = try await tokens.verify(token, now: now) }?.code == code, "\(token)")
        }
        #expect(try await tokens.verify(good, now: now).notificationID == "n")
    }

    @Test func expiryAllows30SecondsOfSkewAndNoMore() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let token = try await tokens.mint(user: "u", notificationID: "n", category: "c", payload: nil, lifetime: 60, now: now)
        _ = try await tokens.verify(token, now: now.addingTimeInterval(60 + 29))
        let expired = await failure { _ = try await tokens.verify(token, now: now.addingTimeInterval(60 + 31)) }
        #expect(expired?.code == .expired)
        #expect(expired?.status == 401)
        // Issued in the future: 29 s is skew, 31 s is not.
        _ = try await tokens.verify(token, now: now.addingTimeInterval(-29))
        #expect(await failure { _ = try await tokens.verify(token, now: now.addingTimeInterval(-31)) }?.code == .notYetValid)
    }

    @Test func authorizationFailuresAre403() async throws {
        let tokens = try await ActionTokens(keys: [Self.new])
        let token = try await tokens.verify(
            try await tokens.mint(user: "alice", notificationID: "n-1", category: "invite", actions: ["accept"], payload: nil, now: now),
            now: now)
        try token.authorize(category: "invite", action: "accept", notificationID: "n-1", user: "alice")
        try token.authorize(category: "invite", action: "accept")
        let cases: [(ActionTokenError.Code, () throws(ActionTokenError) -> Void)] = [
            (.wrongCategory, { () throws(ActionTokenError) in try token.authorize(category: "message", action: "accept") }),
            (.actionNotAllowed, { () throws(ActionTokenError) in try token.authorize(category: "invite", action: "decline") }),
            (.wrongNotification, { () throws(ActionTokenError) in try token.authorize(category: "invite", action: "accept", notificationID: "n-2") }),
            (.wrongUser, { () throws(ActionTokenError) in try token.authorize(category: "invite", action: "accept", user: "bob") }),
        ]
        for (code, check) in cases {
            do {
                try check()
                Issue.record("expected \(code)")
            } catch {
                #expect(error.code == code)
                #expect(error.status == 403)
            }
        }
    }

    @Test func keysAreParsedAndShortSecretsRefused() throws {
        let key = try ActionTokenKey(parsing: "k1=0123456789abcdef0123456789abcdef=tail")
        #expect(key.id == "k1")
        #expect("\(key)" == "ActionTokenKey(k1)")
        #expect(throws: ActionTokenKeyError.self) { try ActionTokenKey(parsing: "k1=short") }
        #expect(throws: ActionTokenKeyError.self) { try ActionTokenKey(parsing: "no-equals-sign") }
        #expect(throws: ActionTokenKeyError.self) { try ActionTokenKey(parsing: "=0123456789abcdef0123456789abcdef") }
    }

    @Test func theDevelopmentKeyIsCreatedOnceAndReused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-dev-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DevelopmentKey.loadOrCreate(directory: directory)
        let second = try DevelopmentKey.loadOrCreate(directory: directory)
        #expect(first.created)
        #expect(!second.created)
        #expect(first.key == second.key)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/development-token-key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }

    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
