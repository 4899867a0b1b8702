import ActionableTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real `actionable serve` processes against scripted raw-socket upstreams: whatever an
/// upstream answers — absurd `Retry-After`s, garbage, stalls, endless bodies, resets — the process
/// stays up, each attempt ends and is retried, a genuine tap is still accepted and delivered, and
/// SIGTERM ends within the grace. A poison delivery (the process killed during its attempts) is
/// set aside after three expired leases; connections from one address never keep another out.
@Suite(.serialized)
struct HostileUpstreamProcessTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let admin = DeliveriesProcessTests.admin

    /// The first answer each delivery gets; every later one is 204.
    static let hostile: [(String, HostileUpstream.Behavior)] = [
        ("Retry-After: 2^63 - 1", .answer(503, headers: [("Retry-After", "9223372036854775807")])),
        ("Retry-After: 1e308", .answer(503, headers: [("Retry-After", "1e308")])),
        ("Retry-After: -1", .answer(429, headers: [("Retry-After", "-1")])),
        ("Retry-After: NaN", .answer(503, headers: [("Retry-After", "NaN")])),
        ("Retry-After: year 9999", .answer(503, headers: [("Retry-After", "Fri, 31 Dec 9999 23:59:59 GMT")])),
        ("Retry-After: 1970", .answer(503, headers: [("Retry-After", "Thu, 01 Jan 1970 00:00:00 GMT")])),
        ("Retry-After: garbage", .answer(503, headers: [("Retry-After", "\u{7f}soon\u{7f}")])),
        ("Retry-After: empty", .answer(503, headers: [("Retry-After", "")])),
        ("a garbage status line", .bytes(Array("HTTP/1.1 abc Nope\r\n\r\n".utf8))),
        ("not HTTP", .bytes(Array("\u{0}\u{1}garbage\r\n\r\n".utf8))),
        ("a head then a stall", .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{".utf8))),
        ("silence", .stall([])),
        ("an endless body", .endless(head: Array("HTTP/1.1 500 Oops\r\nContent-Length: 999999999\r\n\r\n".utf8))),
        ("a reset mid-body", .reset(Array("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{\"a\"".utf8))),
        ("a redirect to nowhere", .answer(307, headers: [("Location", "http://[::1")])),
    ]

    /// An upstream answering each delivery's first attempt with the next hostile answer, then 204.
    static func upstream() throws -> HostileUpstream {
        let next = Mutex(0)
        return try HostileUpstream { _, seen in
            guard seen == 0 else { return .answer(204) }
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            return index < hostile.count ? hostile[index].1 : .answer(204)
        }
    }

    static func serve(in directory: URL, upstream: Int, extra: [String] = []) async throws -> (ServerProcess, Int) {
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--forward", "invite.*=http://127.0.0.1:\(upstream)/rsvp", "--forward-secret", secret, "--admin-token", admin,
            ] + extra)
        return (server, port)
    }

    static func status(_ path: String, port: Int) async throws -> Int {
        try await LoopbackCall.send(path, port: port, bearer: admin).status
    }

    @Test(.timeLimit(.minutes(3)))
    func noAnswerStopsOrStallsTheServer() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try Self.upstream()
        defer { upstream.stop() }
        let (server, port) = try await Self.serve(
            in: directory, upstream: upstream.port,
            extra: [
                "--forward-timeout", "2s", "--shutdown-grace", "5s", "--retry-first-delay", "0.2s", "--retry-max-delay", "1s",
                // Every delivery fails once on purpose: the breaker would hold them for a minute.
                "--breaker-failures", "1000",
            ])
        defer { server.signal(SIGKILL) }
        var ids: [String] = []
        for index in Self.hostile.indices {
            let (status, body) = try await ServeProcessTests.post(
                try ServeProcessTests.acceptTap(notificationID: "n-hostile-\(index)", in: directory), port: port)
            #expect(status == 202)
            ids.append(try #require(body["id"] as? String))
        }
        // Each delivery got its hostile answer, its attempt ended (within the forward timeout)
        // and was recorded, and it was tried again: the second try is answered 204.
        for id in ids { try await upstream.arrived(2, id: Forwarded.webhookID(id)) }
        #expect(try await Self.status("/healthz", port: port) == 200)
        for id in ids {
            let item = try await DeliveriesProcessTests.item(id, port: port)
            #expect((item["attempts"] as? Int ?? 0) >= 1, "\(item)")
        }
        // A genuine tap is accepted and delivered at once.
        let (status, body) = try await ServeProcessTests.post(
            try ServeProcessTests.acceptTap(notificationID: "n-genuine", in: directory), port: port)
        #expect(status == 202)
        let genuine = try #require(body["id"] as? String)
        try await upstream.arrived(1, id: Forwarded.webhookID(genuine))
        #expect(await server.stop() == 0)
        #expect(server.terminationReason == .exit)
    }

    /// An upstream that stalls every answer: SIGTERM still ends the process within the grace
    /// (the attempt in flight ends at its deadline and is recorded), and after a restart the
    /// delivery is tried again.
    @Test(.timeLimit(.minutes(2)))
    func sigtermEndsWithinTheGraceWhateverTheUpstreamDoes() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try HostileUpstream { _, _ in .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)) }
        defer { upstream.stop() }
        let extra = ["--forward-timeout", "3s", "--shutdown-grace", "5s", "--retry-first-delay", "0.2s", "--retry-max-delay", "0.5s"]
        let (server, port) = try await Self.serve(in: directory, upstream: upstream.port, extra: extra)
        defer { server.signal(SIGKILL) }
        let (status, body) = try await ServeProcessTests.post(
            try ServeProcessTests.acceptTap(notificationID: "n-stalled", in: directory), port: port)
        #expect(status == 202)
        let id = try #require(body["id"] as? String)
        try await upstream.arrived(1, id: Forwarded.webhookID(id))
        #expect(await server.stop() == 0)

        let (restarted, _) = try await Self.serve(in: directory, upstream: upstream.port, extra: extra)
        defer { restarted.signal(SIGKILL) }
        try await upstream.arrived(2, id: Forwarded.webhookID(id))
        #expect(await restarted.stop() == 0)
    }

    /// kill -9 while an attempt is in flight, three times: the restarted process does not make
    /// the attempt a fourth time — the delivery is dead with the reason — and stays up.
    @Test(.timeLimit(.minutes(3)))
    func aPoisonDeliveryIsSetAsideAfterThreeExpiredLeases() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try HostileUpstream { _, _ in .stall([]) }
        defer { upstream.stop() }
        // Each attempt stalls for its 2 s, and the process is killed as soon as it began: the
        // lease (3 s) runs out without an outcome.
        let extra = ["--delivery-lease", "4s", "--forward-timeout", "2s", "--shutdown-grace", "4s"]
        var (server, port) = try await Self.serve(in: directory, upstream: upstream.port, extra: extra)
        let (status, body) = try await ServeProcessTests.post(
            try ServeProcessTests.acceptTap(notificationID: "n-poison", in: directory), port: port)
        #expect(status == 202)
        let id = try #require(body["id"] as? String)
        for attempt in 1...3 {
            try await upstream.arrived(attempt, id: Forwarded.webhookID(id))
            server.signal(SIGKILL)  // the attempt "stopped the process"
            await server.exit()
            (server, port) = try await Self.serve(in: directory, upstream: upstream.port, extra: extra)
        }
        defer { server.signal(SIGKILL) }
        _ = try await server.output(containing: "delivery set aside")
        let item = try await DeliveriesProcessTests.item(id, port: port)
        #expect(item["status"] as? String == "dead", "\(item)")
        #expect((item["lastError"] as? String)?.contains("3 leases expired without an outcome") == true, "\(item)")
        #expect(upstream.arrivals.filter { $0 == Forwarded.webhookID(id) }.count == 3)
        #expect(try await Self.status("/healthz", port: port) == 200)
        // The rest flow: a new tap is attempted (and stalls, like every answer here).
        let (next, nextBody) = try await ServeProcessTests.post(
            try ServeProcessTests.acceptTap(notificationID: "n-after-poison", in: directory), port: port)
        #expect(next == 202)
        try await upstream.arrived(1, id: Forwarded.webhookID(try #require(nextBody["id"] as? String)))
    }

    /// 64 sockets that send nothing, from 127.0.0.2: eight are let in (the per-address limit),
    /// the rest closed at once, and taps from 127.0.0.1 are still accepted (the total limit is
    /// 16, which the 64 would have filled).
    @Test(.timeLimit(.minutes(1)))
    func idleSocketsFromOneAddressNeverKeepAnotherOut() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--storage", "memory:", "--max-connections", "16", "--max-connections-per-address", "8", "--read-timeout", "60s",
            ])
        defer { server.signal(SIGKILL) }
        let idle = try (0..<64).map { _ in try RawConnection(port: port, readTimeout: 5, from: "127.0.0.2") }
        // 56 are closed at once; the 8 let in stay open (their read deadline is a minute away).
        #expect(await RawConnection.closedByServer(idle, within: 5) == 56)
        for index in 0..<3 {
            let (status, _) = try await ServeProcessTests.post(
                try ServeProcessTests.acceptTap(notificationID: "n-beside-idle-\(index)", in: directory), port: port)
            #expect(status == 202)
        }
        withExtendedLifetime(idle) {}
    }

    /// The metrics listener has the same limits: a socket that sends nothing is closed by the
    /// read deadline, counted from its opening.
    @Test(.timeLimit(.minutes(1)))
    func theMetricsListenerClosesASilentSocket() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServeProcessTests.freePort()
        let metrics = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: ["--storage", "memory:", "--metrics-address", "127.0.0.1:\(metrics)", "--read-timeout", "2s"])
        defer { server.signal(SIGKILL) }
        _ = try await server.output(containing: "metrics on")
        let silent = try RawConnection(port: metrics, readTimeout: 20)
        #expect(await silent.isClosedBeforeTimeout())
        let main = try RawConnection(port: port, readTimeout: 20)
        #expect(await main.isClosedBeforeTimeout())
    }
}
