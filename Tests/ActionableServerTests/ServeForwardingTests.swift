import ActionableDelivery
import ActionableService
import ActionableTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `actionable serve --forward`: an accepted tap reaches the upstream, signed, and the server
/// still exits 0 on SIGTERM with its delivery worker running.
struct ServeForwardingTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// Hands the first request the upstream receives to whoever awaits it.
    actor Inbox {
        var received: (HTTPFields, String)?
        var waiter: CheckedContinuation<(HTTPFields, String), Never>?
        func deliver(_ headers: HTTPFields, _ body: String) {
            if let waiter {
                self.waiter = nil
                waiter.resume(returning: (headers, body))
            } else if received == nil {
                received = (headers, body)
            }
        }
        func next() async throws -> (HTTPFields, String) {
            try await within("a forwarded call") { await self.park() }
        }
        private func park() async -> (HTTPFields, String) {
            if let received { return received }
            return await withCheckedContinuation { waiter = $0 }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anAcceptedTapIsForwardedSigned() async throws {
        let inbox = Inbox()
        let router = Router()
        router.post("/rsvp") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            await inbox.deliver(request.headers, String(buffer: body))
            return Response(status: .noContent)
        }
        let upstream = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await upstream.test(.live) { client in
            let upstreamPort = try #require(client.port)
            let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let payload = try await CommandLineRunner.run(
                [
                    "payload", "invite", "--body", "b", "--set", "inviteId=42",
                    "--user", "bob",
                ], in: directory)
            let token = try #require((try JSONSerialization.jsonObject(with: Data(payload.stdout.utf8)) as? [String: Any])?["actionToken"] as? String)

            let port = try ServeProcessTests.freePort()
            let server = try await ServerProcess.serve(
                in: directory, port: port,
                extra: [
                    "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret", Self.secret,
                ])
            defer { server.signal() }
            let (status, accepted) = try await ServeProcessTests.post(
                #"{"category":"invite","action":"decline","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#, port: port)
            #expect(status == 202)
            let id = try #require(accepted["id"] as? String)

            let (headers, body) = try await inbox.next()
            // The webhook-id is the response id (the same for every endpoint); the endpoint is named apart.
            let webhookID = Forwarded.webhookID(id)
            #expect(webhookID == id)
            #expect(headers[HTTPField.Name("webhook-endpoint")!] == ForwardRoute(pattern: "invite.*", url: "http://127.0.0.1/").endpointID)
            #expect(headers[HTTPField.Name("webhook-id")!] == webhookID)
            #expect(headers[HTTPField.Name("Idempotency-Key")!] == webhookID)
            #expect(body.contains(#""id":"\#(id)""#))
            let timestamp = try #require(headers[HTTPField.Name("webhook-timestamp")!].flatMap { Int($0) })
            let expected = try WebhookSigner(secret: Self.secret).signature(id: webhookID, timestamp: timestamp, body: Array(body.utf8))
            #expect(headers[HTTPField.Name("webhook-signature")!] == expected)
            #expect(body.contains(#""action":"decline""#))
            #expect(body.contains(#""user":"bob""#))

            #expect(await server.stop() == 0)
        }
    }

    /// Two `--forward` flags with one pattern and two URLs are two endpoints: each upstream gets
    /// the tap. (The endpoint id came from the pattern alone: one endpoint, whose URL was the
    /// last flag's, and the first upstream got nothing.) A third start that gives only the first
    /// flag keeps its endpoint rather than making a second one for the same URL.
    @Test(.timeLimit(.minutes(1)))
    func onePatternForwardedToTwoUpstreamsReachesBoth() async throws {
        let first = try HostileUpstream { _, _ in .answer(204) }
        defer { first.stop() }
        let second = try HostileUpstream { _, _ in .answer(204) }
        defer { second.stop() }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let admin = DeliveriesProcessTests.admin
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--forward", "invite.*=http://127.0.0.1:\(first.port)/rsvp", "--forward", "invite.*=http://127.0.0.1:\(second.port)/rsvp",
                "--forward-secret", Self.secret, "--admin-token", admin,
            ])
        let id = try await DeliveriesProcessTests.tap("n-two-upstreams", in: directory, port: port)
        try await first.arrived(1, id: id)
        try await second.arrived(1, id: id)
        let items = try #require(try await LoopbackCall.send("/v1/endpoints", port: port, bearer: admin).json["items"] as? [[String: Any]])
        #expect(Set(items.compactMap { $0["url"] as? String }) == ["http://127.0.0.1:\(first.port)/rsvp", "http://127.0.0.1:\(second.port)/rsvp"])
        #expect(await server.stop() == 0)

        // The pattern named by one flag again: the endpoint seeded for that URL stays the one.
        let again = try ServeProcessTests.freePort()
        let single = try await ServerProcess.serve(
            in: directory, port: again,
            extra: ["--forward", "invite.*=http://127.0.0.1:\(first.port)/rsvp", "--forward-secret", Self.secret, "--admin-token", admin])
        defer { single.signal() }
        let after = try #require(try await LoopbackCall.send("/v1/endpoints", port: again, bearer: admin).json["items"] as? [[String: Any]])
        #expect(after.count == 2, "\(after)")
        let next = try await DeliveriesProcessTests.tap("n-one-upstream-again", in: directory, port: again)
        try await first.arrived(1, id: next)
        #expect(await single.stop() == 0)

        // Only the second URL now: the endpoint seeded for it stays the one, and no other is
        // turned to it (the first endpoint, by its id, was: two endpoints for one URL, each tap twice).
        let last = try ServeProcessTests.freePort()
        let other = try await ServerProcess.serve(
            in: directory, port: last,
            extra: ["--forward", "invite.*=http://127.0.0.1:\(second.port)/rsvp", "--forward-secret", Self.secret, "--admin-token", admin])
        defer { other.signal() }
        let final = try #require(try await LoopbackCall.send("/v1/endpoints", port: last, bearer: admin).json["items"] as? [[String: Any]])
        #expect(final.count == 2, "\(final)")
        #expect(final.filter { $0["url"] as? String == "http://127.0.0.1:\(second.port)/rsvp" }.count == 1, "\(final)")
        #expect(await other.stop() == 0)
    }

    /// The same `PATTERN=URL` twice is refused at start-up, naming it.
    @Test func theSameForwardTwiceIsAUsageError() async throws {
        let flag = "invite.*=http://127.0.0.1:1/x"
        let run = try await CommandLineRunner.run(["serve", "--forward", flag, "--forward", flag, "--forward-secret", Self.secret])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--forward invite.*=http://127.0.0.1:1 is given twice"), "\(run.stderr)")
    }

    /// SIGTERM is logged when the shutdown begins and when it ends.
    @Test(.timeLimit(.minutes(1)))
    func aShutdownIsLogged() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess.serve(in: directory, port: try ServeProcessTests.freePort())
        #expect(!server.log.contains("shutting down"))
        #expect(await server.stop() == 0)
        let log = server.log
        let begun = try #require(log.range(of: "shutting down: no new connections"), "\(log)")
        let stopped = try #require(log.range(of: "stopped", range: begun.upperBound..<log.endIndex), "\(log)")
        #expect(begun.upperBound <= stopped.lowerBound)
    }

    @Test func forwardWithoutASecretIsAUsageError() async throws {
        let run = try await CommandLineRunner.run(["serve", "--forward", "invite.*=http://127.0.0.1:1/x"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--forward needs --forward-secret"))
    }

    /// A start without the `--forward` flag that seeded an endpoint leaves the endpoint as it
    /// was — active — so one instance of a rolling deploy cannot stop delivery for the fleet; a
    /// tap accepted by that start is still delivered there.
    @Test(.timeLimit(.minutes(1)))
    func aStartWithoutTheFlagLeavesItsEndpointActive() async throws {
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        defer { upstream.stop() }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let admin = DeliveriesProcessTests.admin
        let port = try ServeProcessTests.freePort()
        let seeding = try await ServerProcess.serve(
            in: directory, port: port,
            extra: ["--forward", "invite.*=http://127.0.0.1:\(upstream.port)/rsvp", "--forward-secret", Self.secret, "--admin-token", admin])
        #expect(await seeding.stop() == 0)
        // A port of its own: another test may have taken the first one since it closed.
        let second = try ServeProcessTests.freePort()
        let without = try await ServerProcess.serve(
            in: directory, port: second, extra: ["--forward-secret", Self.secret, "--admin-token", admin])
        defer { without.signal() }
        let items = try #require(try await LoopbackCall.send("/v1/endpoints", port: second, bearer: admin).json["items"] as? [[String: Any]])
        #expect(items.map { $0["state"] as? String } == ["active"], "\(items)")
        let id = try await DeliveriesProcessTests.tap("n-without-flag", in: directory, port: second)
        try await upstream.arrived(1, id: id)
        #expect(await without.stop() == 0)
    }
}
