import ActionableCore
import ActionableDelivery
import ActionableRouter
import ActionableTestSupport
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing

/// What an upstream answers is hostile input: every odd `Retry-After`, garbage status lines and
/// headers, a head and then a stall, a body without end, a reset mid-body — the forwarder reads
/// each into an outcome within its deadline, and never traps.
struct HostileAnswerTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let response = ActionResponse(category: "invite", action: "accept", notificationID: "n-1", user: "alice")

    static let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let logger = Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() })

    /// One attempt against an upstream that behaves as `behavior`: its outcome, or what it threw.
    static func attempt(_ behavior: HostileUpstream.Behavior, timeout: TimeAmount = .seconds(2)) async throws -> Result<UpstreamAnswer, any Error> {
        let upstream = try HostileUpstream { _, _ in behavior }
        defer { upstream.stop() }
        // A client of its own: the shared one pools connections by host and port, and a port freed
        // by an earlier test's upstream (left mid-answer) may be bound again by this one — its
        // stale connection then answers for this upstream (seen once in CI as
        // `remoteConnectionClosed`).
        let client = Self.client()
        let forwarder = Forwarder(
            url: "http://127.0.0.1:\(upstream.port)/hook", signer: try WebhookSigner(secret: secret), client: client,
            timeout: timeout)
        let result: Result<UpstreamAnswer, any Error>
        do {
            result = .success(try await forwarder.forward(response, id: "resp-1", receivedAt: receivedAt, logger: logger))
        } catch {
            result = .failure(error)
        }
        try await client.shutdown()
        return result
    }

    /// A client configured as ``Forwarder/client`` is (no redirects, a refused connection not
    /// retried within the attempt), with no connection shared with another test.
    static func client() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// `Retry-After` in every form: too large is the longest delay (an hour), unreadable or
    /// negative is no request (the worker's first delay), a date past is no wait.
    @Test(
        arguments: [
            ("9223372036854775807", 3600), ("9223372036854775808", 3600), ("1e308", nil), ("-1", nil), ("NaN", nil),
            ("Fri, 31 Dec 9999 23:59:59 GMT", 3600), ("Thu, 01 Jan 1970 00:00:00 GMT", 0), ("soon", nil), ("", nil),
            (String(repeating: "9", count: 4000), 3600), ("7", 7),
        ] as [(String, Int?)])
    func everyRetryAfterIsReadWithoutATrap(value: String, seconds: Int?) async throws {
        // 30 s: an answer that comes at once must be read, however busy the machine.
        let outcome = try await Self.attempt(.answer(503, headers: [("Retry-After", value)]), timeout: .seconds(30)).get()
        #expect(outcome == .retry(after: seconds.map { .seconds($0) }))
    }

    /// The same mapping, without a socket: what the fuzz target runs.
    @Test func theOutcomeOfAnyStatusIsAnswered() throws {
        let forwarder = Forwarder(url: "http://127.0.0.1:9/hook", signer: try WebhookSigner(secret: Self.secret))
        var headers = HTTPHeaders()
        headers.add(name: "Retry-After", value: "9223372036854775807")
        headers.add(name: "Location", value: "http://[::1")
        for status in [0, 1, 99, 100, 199, 204, 299, 300, 302, 399, 408, 429, 499, 500, 599, 600, 999, Int.max, Int.min] {
            _ = try? forwarder.outcome(status: status, headers: headers, now: Date())
        }
        #expect(try forwarder.outcome(status: 429, headers: headers, now: Date()) == .retry(after: .seconds(3600)))
    }

    /// Garbage status lines and headers, a head then a stall, an endless body, a reset mid-body,
    /// silence: each attempt ends within the deadline, as a retry (never a trap, never a hang).
    @Test(
        .timeLimit(.minutes(2)),
        arguments: [
            ("garbage status line", HostileUpstream.Behavior.bytes(Array("HTTP/1.1 abc Nope\r\n\r\n".utf8))),
            ("not HTTP", .bytes(Array("\u{0}\u{1}\u{2}garbage\r\n\r\n".utf8))),
            ("a status of 999", .bytes(Array("HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n".utf8))),
            ("a negative length", .bytes(Array("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n".utf8))),
            ("a huge length", .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8))),
            ("a header without end", .stall(Array(("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 200_000)).utf8))),
            ("a head then a stall", .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\"".utf8))),
            ("nothing at all", .stall([])),
            ("a reset mid-body", .reset(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\"".utf8))),
            ("a closed connection", .bytes([])),
            // Both a length of 0 and chunked (the HTTP/1 parser refuses it), then a stall.
            (
                "a length of 0 and chunked, then a stall",
                .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n".utf8))
            ),
        ] as [(String, HostileUpstream.Behavior)])
    func everyBrokenAnswerIsAFailedAttemptWithinTheDeadline(name: String, behavior: HostileUpstream.Behavior) async throws {
        let started = ContinuousClock.now
        let outcome = try await Self.attempt(behavior)
        switch outcome {
        case .success(.delivered): Issue.record("\(name): a broken answer was taken for a delivery")
        case .success(.refused(let reason)): #expect(reason.contains("not retried"), "\(name): \(reason)")  // a 999 status
        case .success(.retry), .failure: break  // a failed attempt, retried on the schedule
        }
        // Bounded by the 2 s deadline, not by the upstream, which never ends (the margin is for a
        // loaded machine: the suite runs beside it).
        #expect(ContinuousClock.now - started < .seconds(45), "\(name)")
    }

    /// An endless 2xx body: the answer's status stands (the body is read up to 64 KiB and cut),
    /// and the attempt ends.
    @Test(.timeLimit(.minutes(1)))
    func anEndlessBodyEndsTheAttempt() async throws {
        let outcome = try await Self.attempt(
            .endless(head: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)), timeout: .seconds(30))
        // Chunked framing of "x…" is garbage: a failed attempt; either way, it ended.
        if case .success(.delivered) = outcome { Issue.record("garbage chunks were taken for a delivery") }
        let counted = try await Self.attempt(.endless(head: Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)), timeout: .seconds(30))
        #expect((try? counted.get()) == .delivered)
        // A 500 with a body that never ends: read up to 64 KiB, then the status stands.
        let failing = try await Self.attempt(
            .endless(head: Array("HTTP/1.1 500 Oops\r\nContent-Length: 999999999\r\n\r\n".utf8)), timeout: .seconds(30))
        #expect((try? failing.get()) == .retry(after: nil))
    }
}

/// An upstream that writes a second answer nobody asked for, after the answer to a request, on a
/// connection kept alive: the next request on that connection must get its own answer, never
/// the stray one (a stray 200 would record a delivery the upstream never answered).
struct StrayAnswerTests {
    @Test(.timeLimit(.minutes(1)))
    func anAnswerNobodyAskedForIsNeverTakenForTheNextRequests() async throws {
        let twoAnswers = Array(
            ("HTTP/1.1 204 First\r\nContent-Length: 0\r\n\r\n" + "HTTP/1.1 200 Stray\r\nContent-Length: 0\r\n\r\n").utf8)
        let refused = Array("HTTP/1.1 500 Own\r\nContent-Length: 0\r\n\r\n".utf8)
        // r-1 is answered 204 and then a stray 200; every later request is answered 500.
        let upstream = try HostileUpstream { id, _ in id == "r-1" ? .keepOpen(twoAnswers) : .keepOpen(refused) }
        defer { upstream.stop() }
        let forwarder = Forwarder(
            url: "http://127.0.0.1:\(upstream.port)/hook", signer: try WebhookSigner(secret: HostileAnswerTests.secret),
            timeout: .seconds(10))
        let first = try await forwarder.forward(
            HostileAnswerTests.response, id: "r-1", receivedAt: HostileAnswerTests.receivedAt, logger: HostileAnswerTests.logger)
        #expect(first == .delivered)
        try await upstream.answered(1)
        for index in 2...4 {
            let outcome = try? await forwarder.forward(
                HostileAnswerTests.response, id: "r-\(index)", receivedAt: HostileAnswerTests.receivedAt,
                logger: HostileAnswerTests.logger)
            #expect(outcome != .delivered, "r-\(index) was taken for delivered on an answer to r-1")
        }
    }
}
