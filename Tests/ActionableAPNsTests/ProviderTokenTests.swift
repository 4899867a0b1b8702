import ActionableAPNs
import Foundation
import JWTKit
import Synchronization
import Testing

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { time = Mutex(start) }
    var now: Date { time.withLock { $0 } }
    func advance(minutes: Double) { time.withLock { $0 = $0.addingTimeInterval(minutes * 60) } }
    var function: @Sendable () -> Date { { self.now } }
}

/// One provider token for every concurrent send; a new one after 50 minutes, never within 20.
struct ProviderTokenTests {
    @Test func concurrentSendsShareOneToken() async throws {
        let clock = TestClock()
        let token = await ProviderToken(key: ES256PrivateKey(), keyID: "KEY1", teamID: "TEAM", now: clock.function)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1_000 { group.addTask { try await token.token() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await token.made == 1)
    }

    @Test func aTokenIsMadeAgainAfterFiftyMinutesAndNotBefore() async throws {
        let clock = TestClock()
        let token = await ProviderToken(key: ES256PrivateKey(), keyID: "KEY1", teamID: "TEAM", now: clock.function)
        let first = try await token.token()
        clock.advance(minutes: 49.9)
        #expect(try await token.token() == first)
        clock.advance(minutes: 0.1)
        let second = try await token.token()
        #expect(second != first)
        #expect(await token.made == 2)
    }

    @Test func anExpiredAnswerRefreshesOnlyAnOldEnoughCurrentToken() async throws {
        let clock = TestClock()
        let token = await ProviderToken(key: ES256PrivateKey(), keyID: "KEY1", teamID: "TEAM", now: clock.function)
        let first = try await token.token()
        clock.advance(minutes: 10)
        #expect(try await token.refresh(replacing: first) == nil)  // younger than 20 minutes: never replaced
        clock.advance(minutes: 15)
        let second = try #require(try await token.refresh(replacing: first))
        #expect(second != first)
        // Another send refused the old one meanwhile: it gets the new one, nothing is made.
        #expect(try await token.refresh(replacing: first) == second)
        #expect(await token.made == 2)
    }

    @Test func theTokenIsES256WithKidAndTheTeamAsIssuer() async throws {
        let key = ES256PrivateKey()
        let clock = TestClock()
        let text = try await ProviderToken(key: key, keyID: "KEY1", teamID: "TEAM42", now: clock.function).token()
        struct Claims: JWTPayload {
            var iss: IssuerClaim
            var iat: IssuedAtClaim
            func verify(using algorithm: some JWTAlgorithm) throws {}
        }
        let keys = await JWTKeyCollection().add(ecdsa: key.publicKey, kid: "KEY1")
        let claims = try await keys.verify(text, as: Claims.self)
        #expect(claims.iss.value == "TEAM42")
        #expect(claims.iat.value == clock.now)
        let header = try #require(Data(base64Encoded: Self.padded(String(text.split(separator: ".")[0]))))
        let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
        #expect(fields["alg"] as? String == "ES256")
        #expect(fields["kid"] as? String == "KEY1")
    }

    static func padded(_ base64URL: String) -> String {
        let base64 = base64URL.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }

    /// Storage as the sharing sees it: the key's one token.
    actor SharedSlot {
        var stored: (token: String, issuedAt: Date)?
        var failing = false
        func offer(_ candidate: String, _ issuedAt: Date, _ reuseIfIssuedAfter: Date) throws -> (token: String, issuedAt: Date) {
            if failing { throw CancellationError() }
            if let stored, stored.issuedAt > reuseIfIssuedAfter { return stored }
            stored = (candidate, issuedAt)
            return (candidate, issuedAt)
        }
        func fail() { failing = true }
    }

    @Test func twoInstancesSharingStorageSendWithOneTokenAndRenewItTogether() async throws {
        let clock = TestClock()
        let key = ES256PrivateKey()
        let slot = SharedSlot()
        let first = await ProviderToken(key: key, keyID: "KEY1", teamID: "TEAM", now: clock.function)
        let second = await ProviderToken(key: key, keyID: "KEY1", teamID: "TEAM", now: clock.function)
        for instance in [first, second] { await instance.share { try await slot.offer($0, $1, $2) } }
        let token = try await first.token()
        clock.advance(minutes: 5)
        #expect(try await second.token() == token)  // the second, started later, takes the first's
        // The second's view is the token's own age: both renew at 50 minutes after it was made.
        clock.advance(minutes: 45)
        let renewed = try await second.token()
        #expect(renewed != token)
        #expect(try await first.token() == renewed)
        // A refused token is replaced once: the other instance takes the replacement.
        clock.advance(minutes: 25)
        let replacement = try #require(try await first.refresh(replacing: renewed))
        #expect(try await second.refresh(replacing: renewed) == replacement)
        // Storage out of reach: the instance sends with its own token rather than none.
        await slot.fail()
        clock.advance(minutes: 50)
        #expect(try await first.token() != replacement)
    }
}
