import ActionableCore
import ActionableTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

@testable import ActionableHTTP

/// The admin forms read hostile bytes as a 400 or 413 problem document — never a trap (the old
/// reader stopped the process on `token=%`) — and sign-in is throttled per client address.
struct AdminFormTests {
    /// Bodies that stopped the process through Foundation's `percentEncodedQuery`, and other
    /// malformed forms.
    static let hostile: [[UInt8]] = [
        Array("token=%".utf8), Array("token=%zz".utf8), Array("token=%4".utf8), Array("token=a b".utf8),
        Array("token=\"quoted\"".utf8), Array("token=<script>".utf8), Array("token=a&token=b".utf8),
        Array("token[x]=1".utf8), Array("token=%00".utf8), [0x74, 0x6F, 0x6B, 0x65, 0x6E, 0x3D, 0x00],
        [0x74, 0x6F, 0x6B, 0x65, 0x6E, 0x3D, 0xFF, 0xFE, 0xC3], Array("%=%&=%%&&&==".utf8), Array("token=%E2%82".utf8),
    ]

    @Test func hostileFormsAreProblemsAndTheServerKeepsServing() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        var settings = ServerSettings(adminToken: AdminPageTests.admin)
        settings.acceptUnboundPayloads = false
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store,
                tokens: try await ActionTokens(keys: [ActionsEndpointTests.key]), settings: settings))
        let tap = ActionsEndpointTests.body(try await ActionsEndpointTests.token(notification: "n-forms"))
        try await app.test(.router) { client in
            for path in ["/admin/session", "/admin/logout", "/admin/deliveries/r-001/retry"] {
                for body in Self.hostile + [Array(repeating: UInt8(ascii: "a"), count: AdminForm.maximumSize + 1)] {
                    try await client.execute(
                        uri: path, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                        body: ByteBuffer(bytes: body)
                    ) { response in
                        // An unreadable form is a 400/413 problem; a readable one that is merely wrong gets the
                        // page's own answer (the sign-in form), never a 5xx.
                        let readable = body.count <= AdminForm.maximumSize && (try? AdminForm.fields(String(decoding: body, as: UTF8.self))) != nil
                        #expect(response.status.code < 500, "\(path) \(body): \(response.status)")
                        // (Five readable wrong tokens in a row throttle the sign-in form: 429, before the form is read.)
                        if !readable && response.status != .tooManyRequests {
                            #expect([400, 413].contains(response.status.code), "\(path) \(body): \(response.status)")
                            #expect(response.headers[.contentType] == "application/problem+json")
                            let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                            #expect(json?["status"] as? Int == Int(response.status.code))
                        }
                    }
                }
            }
            try await client.execute(uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json, body: ByteBuffer(string: tap)) {
                #expect($0.status == .accepted)
            }
        }
    }

    @Test func aFormIsReadAsNameValuePairs() throws {
        #expect(try AdminForm.fields("token=a%20b+c&csrf=x%2By") == ["token": "a b c", "csrf": "x+y"])
        #expect(try AdminForm.fields("") == [:])
        for body in Self.hostile.prefix(8) {
            let text = String(decoding: body, as: UTF8.self)
            if let fields = try? AdminForm.fields(text) {
                // What reads at all reads as plain strings (a NUL or a space is just a character).
                #expect(fields.keys.allSatisfy { !$0.isEmpty }, "\(text)")
            }
        }
        #expect(throws: Problem.self) { try AdminForm.fields("token=%") }
        #expect(throws: Problem.self) { try AdminForm.fields("token=a&token=b") }
    }

    /// Five wrong tokens from one address in a minute: the sixth try waits (even with the right
    /// token), another address does not, and the wait ends a minute after the first failure.
    @Test func signInIsThrottledPerAddress() {
        let throttle = SignInThrottle()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for second in 0..<5 {
            #expect(throttle.retryAfter(for: "192.0.2.1", now: start.addingTimeInterval(Double(second))) == nil)
            throttle.recordFailure(from: "192.0.2.1", now: start.addingTimeInterval(Double(second)))
        }
        #expect(throttle.retryAfter(for: "192.0.2.1", now: start.addingTimeInterval(10)) == 50)
        #expect(throttle.retryAfter(for: "192.0.2.2", now: start.addingTimeInterval(10)) == nil)
        #expect(throttle.retryAfter(for: "192.0.2.1", now: start.addingTimeInterval(59)) == 1)
        #expect(throttle.retryAfter(for: "192.0.2.1", now: start.addingTimeInterval(60)) == nil)
        // A success forgets the address's failures.
        throttle.recordFailure(from: "192.0.2.3", now: start)
        throttle.reset("192.0.2.3")
        for _ in 0..<4 { throttle.recordFailure(from: "192.0.2.3", now: start) }
        #expect(throttle.retryAfter(for: "192.0.2.3", now: start) == nil)
        // Bounded: past its capacity, the stalest address is forgotten.
        let small = SignInThrottle(limit: 1, capacity: 2)
        small.recordFailure(from: "a", now: start)
        small.recordFailure(from: "b", now: start.addingTimeInterval(1))
        small.recordFailure(from: "c", now: start.addingTimeInterval(2))
        #expect(small.retryAfter(for: "a", now: start.addingTimeInterval(3)) == nil)
        #expect(small.retryAfter(for: "c", now: start.addingTimeInterval(3)) != nil)
    }

    /// Sign-ins take their place before they are judged: a hundred at once from one address get
    /// five places, the rest wait; a place given back (an unreadable form) frees one; another
    /// address is not affected.
    @Test func placesAreReservedBeforeTheBodyIsRead() {
        let throttle = SignInThrottle()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let answers = (0..<100).map { _ in throttle.reserve(for: "192.0.2.1", now: start) }
        #expect(answers.filter { $0 == nil }.count == 5)
        #expect(answers.compactMap { $0 }.allSatisfy { $0 >= 1 })
        #expect(throttle.reserve(for: "192.0.2.2", now: start) == nil)
        throttle.release("192.0.2.1")
        #expect(throttle.reserve(for: "192.0.2.1", now: start) == nil)
        // Five judged wrong: the address waits a minute from the first failure.
        for _ in 0..<5 { throttle.recordFailure(from: "192.0.2.1", now: start) }
        #expect(throttle.reserve(for: "192.0.2.1", now: start.addingTimeInterval(10)) == 50)
        #expect(throttle.reserve(for: "192.0.2.1", now: start.addingTimeInterval(60)) == nil)
    }

    /// Through the router, a hundred wrong sign-ins sent at once: at most five are judged (401),
    /// every other one is 429 with Retry-After.
    @Test func aHundredConcurrentSignInsGetAtMostFiveJudgements() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        var settings = ServerSettings(adminToken: AdminPageTests.admin)
        settings.secureAdminCookie = false
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store, tokens: try await ActionTokens(keys: [ActionsEndpointTests.key]),
                settings: settings))
        let statuses = try await app.test(.live) { client in
            try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await client.execute(
                            uri: "/admin/session", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                            body: ByteBuffer(string: "token=guess")
                        ) { ($0.status, $0.headers[.retryAfter]) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses.count == 100)
        #expect(statuses.filter { $0.0 == .unauthorized }.count <= 5)
        let waited = statuses.filter { $0.0 == .tooManyRequests }
        #expect(waited.count >= 95)
        #expect(waited.allSatisfy { Int($0.1 ?? "") ?? 0 >= 1 })
    }

    /// Through the page: after five wrong tokens the form answers 429 with Retry-After, and the
    /// right token is refused too until the wait is over.
    @Test func theSignInFormAnswers429AfterFiveWrongTokens() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        let wrong = (0..<5).map { _ in (HTTPRequest.Method.post, "/admin/session", "token=guess" as String?, nil as String?, nil as String?) }
        let pages = try await AdminPageTests.run(store, wrong + [(.post, "/admin/session", "token=\(AdminPageTests.admin)", nil, nil)])
        #expect(pages.prefix(5).map(\.status) == Array(repeating: .unauthorized, count: 5))
        #expect(pages[5].status == .tooManyRequests)
        #expect(Int(pages[5].headers[.retryAfter] ?? "") ?? 0 > 0)
        #expect(pages[5].headers[.setCookie] == nil)
        #expect(pages[5].body.contains("Too many wrong tokens"))
    }
}
