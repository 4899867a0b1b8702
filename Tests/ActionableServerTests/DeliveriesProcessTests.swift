import ActionableSQLite
import ActionableStore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Deliveries for operators through real processes: a long outage ends delivered, a dead
/// response is retried from the terminal with the same webhook-id, and two instances sharing
/// PostgreSQL queue a response once.
@Suite(.timeLimit(.minutes(2)))
struct DeliveriesProcessTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let admin = "operator-token-0123456789abcdefghijkl"

    static func start(
        in directory: URL, upstream: Int, extra: [String] = [], port: Int? = nil
    ) async throws -> (ServerProcess, Int) {
        let port = try port ?? ServerProcess.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            // 30 s for each answer of the in-process upstream (CI saw one 204 arrive after the
            // default 10 s on a loaded machine: retried, as it should be, and counted twice).
            extra: [
                "--forward", "invite.*=http://127.0.0.1:\(upstream)/rsvp", "--forward-secret", secret, "--admin-token", admin,
                "--forward-timeout", "30s", "--delivery-lease", "40s", "--shutdown-grace", "45s",
            ] + extra)
        return (server, port)
    }

    /// Alice's accept on notification `notification`, posted to `port`; the response id.
    static func tap(_ notification: String, in directory: URL, port: Int) async throws -> String {
        let (status, json) = try await ServeProcessTests.post(
            try ServeProcessTests.acceptTap(notificationID: notification, in: directory), port: port)
        #expect(status == 202)
        return try #require(json["id"] as? String)
    }

    /// Returns once `a` or `b` has logged `text`. (The other's wait ends when its process does.)
    static func either(_ a: ServerProcess, _ b: ServerProcess, logs text: String) async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        for server in [a, b] {
            Task {
                if (try? await server.output(containing: text)) != nil { continuation.yield() }
            }
        }
        for await _ in stream { return }
    }

    static func item(_ id: String, port: Int) async throws -> [String: Any] {
        try await LoopbackCall.send("/v1/actions/\(id)", port: port, bearer: admin).json
    }

    @Test func anUpstreamDownForMoreThanTheOldFifteenTriesStillEndsDelivered() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // 25 failures in a row: the old schedule (15 tries, about 40 minutes) made this dead. The
        // delays are shortened so the test takes seconds; the window is what counts.
        try await ScriptedUpstream.run(answer: 204, failFirst: 25) { upstream, upstreamPort in
            let (server, port) = try await Self.start(
                in: directory, upstream: upstreamPort,
                extra: [
                    "--retry-first-delay", "0.01s", "--retry-max-delay", "0.02s", "--retry-for", "1h",
                    // The retry window is what is tested here, not the breaker (EndpointDeliveryTests).
                    "--breaker-failures", "100",
                ])
            defer { server.signal() }
            let id = try await Self.tap("n-outage", in: directory, port: port)
            try await upstream.delivered(id)
            #expect(await upstream.tries(of: id) == 26)
            // A graceful stop records the delivery in flight; then storage says what happened.
            #expect(await server.stop() == 0)
            let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
            let stored = try #require(try await store.response(id: id))
            #expect(stored.status == .delivered)
            #expect(stored.attempts == 26)
        }
    }

    @Test func aDeadResponseIsRetriedFromTheTerminalWithTheSameWebhookID() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ScriptedUpstream.run(answer: 410) { upstream, upstreamPort in
            let (server, port) = try await Self.start(in: directory, upstream: upstreamPort)
            defer { server.signal() }
            let id = try await Self.tap("n-dead", in: directory, port: port)
            let other = try await Self.tap("n-dead-2", in: directory, port: port)
            // 410 makes both dead; the server says so in its log once each is stored dead.
            _ = try await server.output(containing: "delivery is dead", times: 2)
            let list = try await CommandLineRunner.run(
                ["deliveries", "list", "--state", "dead", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin, "--format", "json"])
            #expect(list.stdout.contains(id) && list.stdout.contains(other))
            #expect(list.status == 0, "\(list.stderr)")
            let table = try await CommandLineRunner.run(["deliveries", "list", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin])
            #expect(table.stdout.hasPrefix("ID"))
            #expect(table.stdout.contains("dead"))
            #expect(table.stdout.contains("invite.accept"))

            await upstream.set(204)
            let one = try await CommandLineRunner.run(["deliveries", "retry", id, "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stdout == "queued \(id)\n")
            try await upstream.delivered(id)
            #expect(await upstream.statuses(of: id) == [410, 204])  // the same webhook-id both times

            let rest = try await CommandLineRunner.run(
                ["deliveries", "retry", "--state", "dead", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin])
            #expect(rest.stdout == "queued 1\n")
            try await upstream.delivered(other)

            // A pending or unknown response, or no token: a clear error and exit 1 or 2.
            let unknown = try await CommandLineRunner.run([
                "deliveries", "retry", "nope", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin,
            ])
            #expect(unknown.status == 1)
            #expect(unknown.stderr.contains("HTTP 404"))
            let noToken = try await CommandLineRunner.run(["deliveries", "list", "--url", "http://127.0.0.1:\(port)"])
            #expect(noToken.status == 2)
            let neither = try await CommandLineRunner.run(["deliveries", "retry", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin])
            #expect(neither.status == 2)
            #expect(neither.stderr.contains("--state dead"))
        }
    }

    /// A tap no endpoint takes is held, and the terminal lists it with `--state held`; a state
    /// that does not exist is refused with the four that do.
    @Test func aHeldResponseIsListedFromTheTerminal() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: ["--forward", "message.*=http://127.0.0.1:9/unused", "--forward-secret", Self.secret, "--admin-token", Self.admin])
        defer { server.signal() }
        let id = try await Self.tap("n-held", in: directory, port: port)
        _ = try await server.output(containing: "responses held: no endpoint takes them yet")
        let held = try await CommandLineRunner.run(
            ["deliveries", "list", "--state", "held", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin, "--format", "json"])
        #expect(held.status == 0, "\(held.stderr)")
        #expect(held.stdout.contains(id))
        #expect(held.stdout.contains("no endpoint takes invite.accept yet"))
        let dead = try await CommandLineRunner.run(
            ["deliveries", "list", "--state", "dead", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin, "--format", "json"])
        #expect(!dead.stdout.contains(id))
        let bogus = try await CommandLineRunner.run([
            "deliveries", "list", "--state", "lost", "--url", "http://127.0.0.1:\(port)", "--admin-token", Self.admin,
        ])
        #expect(bogus.status == 2)
        #expect(bogus.stderr.contains("pending, delivered, dead or held"))
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
            "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
    func twoInstancesQueueOneDeadResponseOnceAndDeliverItOnce() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        try await ScriptedUpstream.run(answer: 410) { upstream, upstreamPort in
            let (first, port) = try await Self.start(in: directory, upstream: upstreamPort, extra: ["--storage", url])
            defer { first.signal() }
            let (second, otherPort) = try await Self.start(in: directory, upstream: upstreamPort, extra: ["--storage", url])
            defer { second.signal() }
            let id = try await Self.tap("n-two", in: directory, port: port)
            // Either instance may have delivered it: wait for whichever logs it dead.
            await Self.either(first, second, logs: "delivery is dead")
            await upstream.set(204)
            // The re-queued delivery is held at the upstream until both retries have answered: one
            // queues it, the other finds it pending (without the hold, a delivery finished between
            // the two would make the second a legitimate retry of a delivered response).
            await upstream.hold()
            async let a = BadgeLoad.post("/v1/deliveries/\(id)/retry", body: "{}", bearer: Self.admin, port: port)
            async let b = BadgeLoad.post("/v1/deliveries/\(id)/retry", body: "{}", bearer: Self.admin, port: otherPort)
            let answers = await [a, b].sorted()
            #expect(answers == [202, 409], "\(answers)")
            await upstream.release()
            try await upstream.delivered(id)
            // Delivered once per re-queue. Stopping both instances lets every delivery in flight
            // finish (a graceful stop), so any second delivery would be recorded by now.
            first.signal()
            second.signal()
            #expect(await first.exit() == 0)
            #expect(await second.exit() == 0)
            #expect(await upstream.statuses(of: id) == [410, 204])
        }
    }
}
