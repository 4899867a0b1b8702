import ActionableCore
import ActionableDelivery
import ActionableTestSupport
import ActionableTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Two `actionable serve` processes on one PostgreSQL database (`scripts/test` starts one).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
        "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
struct TwoInstancesTests {
    actor Deliveries {
        var ids: [String] = []
        var waiter: CheckedContinuation<Void, Never>?
        func add(_ id: String) {
            ids.append(id)
            waiter?.resume()
            waiter = nil
        }
        func first() async throws {
            try await within("a first delivery") { await self.park() }
        }
        private func park() async {
            if !ids.isEmpty { return }
            await withCheckedContinuation { waiter = $0 }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func theSameAnswerToBothInstancesIsAcceptedOnceAndDeliveredOnce() async throws {
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let deliveries = Deliveries()
        let router = Router()
        router.post("/rsvp") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            await deliveries.add(request.headers[HTTPField.Name("webhook-id")!] ?? "")
            return Response(status: .noContent)
        }
        let upstream = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await upstream.test(.live) { client in
            let upstreamPort = try #require(client.port)
            let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
            let token = try await ActionTokens(keys: [key]).mint(
                user: "dana", notificationID: "n-\(UUID())", category: "invite", payload: ActionsEndpointTests.inviteDigest("7"))
            let body = #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"7"}}"#
            let extra = ["--storage", url, "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret", secret]
            let ports = try [ServeProcessTests.freePort(), ServeProcessTests.freePort()]
            let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: extra)
            defer { first.signal() }
            let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: extra)
            defer { second.signal() }

            async let a = ServeProcessTests.post(body, port: ports[0])
            async let b = ServeProcessTests.post(body, port: ports[1])
            let replies = try await [a, b]
            #expect(replies.map(\.0).sorted() == [200, 202])
            let ids = Set(replies.compactMap { $0.1["id"] as? String })
            #expect(ids.count == 1)

            try await deliveries.first()
            // Both instances keep running; the claim is leased, so neither delivers it again.
            first.signal()
            second.signal()
            #expect(await first.exit() == 0)
            #expect(await second.exit() == 0)
            #expect(await deliveries.ids == ids.map { Forwarded.webhookID($0) })
        }
    }

    /// A tap accepted while no endpoint takes it is held (on whichever instance claims it), and an
    /// endpoint created through the other instance receives it: the hold and the endpoint's
    /// creation are ordered across instances.
    @Test(.timeLimit(.minutes(1)))
    func aTapHeldOnOneInstanceGoesToAnEndpointCreatedThroughTheOther() async throws {
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        defer { upstream.stop() }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let admin = DeliveriesProcessTests.admin
        let extra = ["--storage", url, "--admin-token", admin, "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]
        let ports = try [ServeProcessTests.freePort(), ServeProcessTests.freePort()]
        let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: extra)
        defer { first.signal() }
        let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: extra)
        defer { second.signal() }

        let id = try await DeliveriesProcessTests.tap("n-held-\(UUID())", in: directory, port: ports[0])
        await DeliveriesProcessTests.either(first, second, logs: "responses held")
        let held = try await DeliveriesProcessTests.item(id, port: ports[1])
        #expect(held["status"] as? String == "held", "\(held)")
        #expect((held["lastError"] as? String)?.contains("no endpoint takes invite.accept") == true, "\(held)")

        let created = try await LoopbackCall.send(
            "/v1/endpoints", method: "POST", port: ports[1], bearer: admin,
            json: #"{"id":"late","url":"http://127.0.0.1:\#(upstream.port)/hook","filter":["invite.*"]}"#)
        #expect(created.status == 201)
        try await upstream.arrived(1)
        #expect(upstream.arrivals.allSatisfy { $0.hasPrefix(id) })
    }

    /// An instance started without `--forward-secret`, beside one that has it, while the seeded
    /// endpoint has no secret of its own: it cannot sign, so it claims none of the endpoint's
    /// deliveries and never moves its breaker — taps it accepts are delivered by the other
    /// instance at the first attempt, and it says why at start.
    @Test(.timeLimit(.minutes(1)))
    func anInstanceThatCannotSignLeavesTheEndpointToTheOthersAndNeverOpensItsBreaker() async throws {
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        defer { upstream.stop() }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let admin = DeliveriesProcessTests.admin
        let ports = try [ServeProcessTests.freePort(), ServeProcessTests.freePort()]
        let signing = try await ServerProcess.serve(
            in: directory, port: ports[0],
            extra: [
                "--storage", url, "--admin-token", admin, "--forward", "invite.*=http://127.0.0.1:\(upstream.port)/rsvp",
                "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            ])
        defer { signing.signal() }
        let unsigned = try await ServerProcess.serve(in: directory, port: ports[1], extra: ["--storage", url, "--admin-token", admin])
        defer { unsigned.signal() }
        _ = try await unsigned.output(containing: "this instance does not deliver to it")

        // Every tap through the instance that cannot sign: its own wake would have it claim first.
        var ids: [String] = []
        for index in 0..<12 { ids.append(try await DeliveriesProcessTests.tap("n-unsigned-\(index)-\(UUID())", in: directory, port: ports[1])) }
        try await upstream.arrived(ids.count)
        #expect(Set(upstream.arrivals) == Set(ids))
        for id in ids {
            let item = try await DeliveriesProcessTests.item(id, port: ports[1])
            #expect(item["attempts"] as? Int == 1, "\(item)")
            #expect(item["lastError"] == nil || item["lastError"] is NSNull, "\(item)")
        }
        let listed = try await LoopbackCall.send("/v1/endpoints", port: ports[1], bearer: admin).json
        let endpoint = try #require((listed["items"] as? [[String: Any]])?.first)
        #expect(endpoint["failureStreak"] as? Int == 0, "\(endpoint)")
        #expect(endpoint["nextProbeAt"] == nil || endpoint["nextProbeAt"] is NSNull, "\(endpoint)")
    }
}
