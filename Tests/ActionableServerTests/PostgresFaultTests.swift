import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

/// PostgreSQL failing under two `serve` instances while clients tap (`TapLoad`: the same tap sent
/// again on any answer but 2xx): crashed and restarted, every connection terminated, stopped and
/// started. Each fault runs on a cluster of the test's own (scripts/postgres-test-cluster), so the
/// suite's shared cluster is never touched.
///
/// What must hold: no instance exits; every answer is 2xx, or 503 with `Retry-After`, within the
/// client's deadline (none hangs, none is a 500); `/readyz` is 503 while the database is down and
/// 200 within 10 s of its return; taps are accepted again without a restart; and every tap
/// answered 2xx reaches the endpoint.
@Suite(.serialized, .enabled(if: ThrowawayPostgres.available, "needs PostgreSQL's server binaries (apt-get install postgresql)"))
struct PostgresFaultTests {
    enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case terminate, crash, outage
        var testDescription: String { rawValue }
    }

    @Test(.timeLimit(.minutes(3)), arguments: Fault.allCases)
    func nothingAcknowledgedIsLostAndDeliveryResumesByItself(after fault: Fault) async throws {
        let postgres = try await ThrowawayPostgres()
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer {
            upstream.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let extra = [
            "--storage", postgres.url, "--forward", "invite.*=http://127.0.0.1:\(upstream.port)/rsvp",
            "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        ]
        let ports = try [ServeProcessTests.freePort(), ServeProcessTests.freePort()]
        let load = TapLoad(ports: ports, tokens: try await ActionTokens(keys: [key]))
        let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: extra)
        let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: extra)
        let instances = [first, second]
        do {
            let clients = Task { await load.run(clients: 6) }
            try await load.accepted(40, after: 0)
            try await upstream.arrived(20)

            switch fault {
            case .terminate:
                try await postgres.terminateConnections()
            case .crash:
                try await postgres.crash()
            case .outage:
                try await postgres.halt()
                for port in ports { try await Self.readiness(port, is: 503, within: .seconds(10)) }
                // Down for a while under load (each client answered twice, about 10 s): every tap
                // in that time must be answered 503, not held.
                let before = load.answers.count
                try await within("clients answered while the database is down", limit: .seconds(30)) {
                    while load.answers.count < before + 12 { try await Task.sleep(for: .milliseconds(50)) }
                }
                let down = load.answers.dropFirst(before)
                #expect(down.allSatisfy { $0.status == 503 }, "answers while the database was down: \(down.map(\.status))")
                try await postgres.resume()
            }
            for port in ports { try await Self.readiness(port, is: 200, within: .seconds(10)) }
            // Taps accepted again through both instances, with nothing restarted.
            let acceptedBefore = load.accepted.count
            try await load.accepted(60, after: acceptedBefore)
            load.stop()
            await clients.value

            load.expectEveryAnswerIsA2xxOrA503WithinTenSeconds()
            if fault == .outage { #expect(load.answers.contains { $0.status == 503 }, "no tap was refused while the database was down") }

            // Every tap answered 2xx reaches the endpoint.
            try await load.everyAcceptedTapArrived(at: upstream)
            for instance in instances { #expect(instance.terminationReason == nil, "an instance exited") }
        } catch {
            for (index, instance) in instances.enumerated() {
                print("instance \(index + 1) printed (last 6,000 characters):\n\(instance.log.suffix(6000))")
            }
            // Last, so that it stands in what a CI summary keeps: the taps answered 2xx that never
            // arrived, and what storage holds of them and of the endpoint.
            let missing = Set(load.accepted).subtracting(upstream.arrivals).sorted()
            if !missing.isEmpty {
                let ids = missing.prefix(20).map { "'\($0)'" }.joined(separator: ",")
                print("accepted but not arrived: \(missing.count) of \(load.accepted.count)")
                print(await postgres.rows("SELECT id, status, fanned_out, attempts, expired_leases FROM action_responses WHERE id IN (\(ids))"))
                print(
                    await postgres.rows(
                        """
                        SELECT response_id, status, attempts, expired_leases, lease_owner, to_timestamp(lease_until) AS lease_until,
                            to_timestamp(next_attempt_at) AS next_attempt_at, last_error FROM endpoint_deliveries WHERE response_id IN (\(ids))
                        """))
                print(await postgres.rows("SELECT id, paused, failure_streak, open_until, next_slot_at FROM endpoints"))
                print(await postgres.rows("SELECT now()"))
            }
            for instance in instances { instance.signal(SIGKILL) }
            await postgres.remove()
            throw error
        }
        for instance in instances { instance.signal() }
        for instance in instances { #expect(await instance.exit() == 0) }
        await postgres.remove()
    }

    /// Returns once `/readyz` on `port` answers `status`; throws if it does not within `limit`.
    static func readiness(_ port: Int, is status: Int, within limit: Duration) async throws {
        try await within("/readyz on \(port) answering \(status)", limit: limit) {
            while (try? await LoopbackCall.send("/readyz", port: port).status) != status {
                try await Task.sleep(for: .milliseconds(100))  // polling a state the server reports
            }
        }
    }
}
