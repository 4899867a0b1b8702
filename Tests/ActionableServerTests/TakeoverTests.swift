import ActionableCore
import ActionablePostgres
import ActionableStore
import ActionableTestSupport
import ActionableTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// An instance killed mid-delivery: its claim runs out and another instance delivers the response.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
        "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
struct TakeoverTests {
    /// The upstream: it never answers the first delivery (its instance is killed while waiting)
    /// and answers every later one.
    actor Upstream {
        private(set) var ids: [String] = []
        private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        private var held: [CheckedContinuation<Void, Never>] = []
        private var released = false

        /// Records a delivery; the first one is held until ``release()``.
        func arrive(_ id: String) async {
            ids.append(id)
            waiters.removeAll { waiter in
                guard ids.count >= waiter.count else { return false }
                waiter.continuation.resume()
                return true
            }
            if ids.count == 1 && !released { await withCheckedContinuation { held.append($0) } }
        }

        /// Returns once `count` deliveries arrived; throws past `limit`.
        func waitFor(_ count: Int, limit: Duration = .seconds(180)) async throws {
            try await within("\(count) deliveries", limit: limit) { await self.park(count) }
        }
        private func park(_ count: Int) async {
            if ids.count >= count { return }
            await withCheckedContinuation { waiters.append((count, $0)) }
        }

        func release() {
            released = true
            for continuation in held { continuation.resume() }
            held = []
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aKilledInstancesClaimIsDeliveredByAnother() async throws {
        let url = Self.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        let upstream = Upstream()
        let app = Self.application(recordingIn: upstream)
        try await app.test(.live) { client in
            let upstreamPort = try #require(client.port)
            let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
            let token = try await ActionTokens(keys: [key]).mint(
                user: "eve", notificationID: "n-\(UUID())", category: "invite", payload: ActionsEndpointTests.inviteDigest("9"))
            let extra = [
                "--storage", url, "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp",
                // The first instance's attempt is held by the upstream until the instance is
                // killed: its deadline (5 s) must outlast the moment the kill takes on a loaded
                // machine, or it records a retry and tries again itself.
                "--forward-secret", secret, "--delivery-lease", "6s", "--forward-timeout", "5s",
            ]

            let firstPort = try ServeProcessTests.freePort()
            let first = try await ServerProcess.serve(in: directory, port: firstPort, extra: extra)
            defer { first.signal(SIGKILL) }
            let (status, json) = try await ServeProcessTests.post(
                #"{"category":"invite","action":"maybe","actionToken":"\#(token)","payload":{"inviteId":"9"}}"#, port: firstPort)
            #expect(status == 202)
            let id = try #require(json["id"] as? String)
            try await upstream.waitFor(1)  // the first instance is delivering it now
            first.signal(SIGKILL)
            await first.exit()

            let secondPort = try ServeProcessTests.freePort()
            let second = try await ServerProcess.serve(in: directory, port: secondPort, extra: extra)
            defer { second.signal() }
            do {
                try await upstream.waitFor(2)  // the lease ran out; the second instance took the claim over
            } catch {
                await upstream.release()  // the held request, so the upstream can shut down
                throw error
            }
            await upstream.release()
            // The same webhook-id both times, so the upstream can de-duplicate.
            #expect(await upstream.ids == [Forwarded.webhookID(id), Forwarded.webhookID(id)])

            // SIGTERM lets the delivery in flight finish and be recorded before the exit.
            #expect(await second.stop() == 0)
            let store = try await PostgresActionStore(url: url, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            defer { store.shutdown() }
            let stored = try #require(try await store.response(id: id))
            #expect(stored.status == .delivered)
            #expect(stored.attempts == 2)
        }
    }

    /// Two instances; the first is killed with SIGKILL while its attempt of the first tap is held
    /// by the upstream. New taps to the same endpoint, through the instance left, reach the
    /// upstream at once: only the row the dead instance held waits for its lease (40 s), and it
    /// is delivered after it.
    @Test(.timeLimit(.minutes(2)))
    func aKilledInstanceStallsOnlyTheRowsItHeld() async throws {
        let url = Self.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let upstream = Upstream()
        let app = Self.application(recordingIn: upstream)
        try await app.test(.live) { client in
            let upstreamPort = try #require(client.port)
            let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
            func tap(to port: Int) async throws -> String {
                let token = try await ActionTokens(keys: [key]).mint(
                    user: "eve", notificationID: "n-\(UUID())", category: "invite", payload: ActionsEndpointTests.inviteDigest("9"))
                let (status, json) = try await ServeProcessTests.post(
                    #"{"category":"invite","action":"maybe","actionToken":"\#(token)","payload":{"inviteId":"9"}}"#, port: port)
                #expect(status == 202)
                return try #require(json["id"] as? String)
            }
            let extra = [
                "--storage", url, "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp",
                "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "--delivery-lease", "40s", "--forward-timeout", "30s",
                "--shutdown-grace", "35s",
            ]
            let firstPort = try ServeProcessTests.freePort()
            let first = try await ServerProcess.serve(in: directory, port: firstPort, extra: extra)
            defer { first.signal(SIGKILL) }
            let held = try await tap(to: firstPort)
            try await upstream.waitFor(1)  // the first instance's attempt, held by the upstream
            let secondPort = try ServeProcessTests.freePort()
            let second = try await ServerProcess.serve(in: directory, port: secondPort, extra: extra)
            defer { second.signal() }
            first.signal(SIGKILL)
            await first.exit()

            var fresh: [String] = []
            for _ in 0..<5 { fresh.append(try await tap(to: secondPort)) }
            do {
                // Five new taps through the instance left, long before the dead one's lease ends.
                try await upstream.waitFor(6, limit: .seconds(20))
                #expect(Set(await upstream.ids.dropFirst()) == Set(fresh.map(Forwarded.webhookID)))
                try await upstream.waitFor(7)  // the held row, once its lease ran out
            } catch {
                await upstream.release()
                throw error
            }
            await upstream.release()
            #expect(await upstream.ids.last == Forwarded.webhookID(held))
            #expect(await second.stop() == 0)
        }
    }

    /// The upstream's server: `POST /rsvp` records the call's `webhook-id` in `upstream` (which
    /// holds the first) and answers 204.
    static func application(recordingIn upstream: Upstream) -> some ApplicationProtocol {
        let router = Router()
        router.post("/rsvp") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            await upstream.arrive(request.headers[HTTPField.Name("webhook-id")!] ?? "")
            return Response(status: .noContent)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// The test database with a schema of its own, so that instances of other tests never claim
    /// this test's responses.
    static func isolated(_ url: String) -> String {
        url + "?schema=t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
