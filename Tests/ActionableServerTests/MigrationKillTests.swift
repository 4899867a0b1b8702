import ActionableTestSupport
import Foundation
import Testing

/// `serve` killed (SIGKILL) at points spread over its first start on a new PostgreSQL schema —
/// while it connects, migrates, seeds its endpoint — and started again each time: whatever the
/// point, the next start completes the schema and accepts taps (each migration is one
/// transaction with the row that records it, so none is left half-applied).
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
        "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
struct MigrationKillTests {
    @Test(.timeLimit(.minutes(3)))
    func aStartKilledAnywhereInItsMigrationsLeavesASchemaTheNextStartCompletes() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        defer { upstream.stop() }
        let extra = [
            "--forward", "invite.*=http://127.0.0.1:\(upstream.port)/rsvp", "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        ]
        // A new schema per round, each killed at a later point of its first start; the last kill
        // of each round is followed by a start that must come up.
        for (round, delays) in [[60, 160], [260, 360], [460, 560], [700, 900]].enumerated() {
            let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
            for delay in delays {
                let port = try ServeProcessTests.freePort()
                let starting = try ServerProcess(
                    CommandLineRunner.binary, ["serve", "--port", String(port), "--storage", url] + extra, in: directory)
                // The fault's moment, not a wait for the server: the kill lands wherever the start is.
                try await Task.sleep(for: .milliseconds(delay))
                starting.signal(SIGKILL)
                _ = await starting.exit()
            }
            let port = try ServeProcessTests.freePort()
            let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--storage", url] + extra)
            let id = try await DeliveriesProcessTests.tap("n-migrated-\(round)-\(UUID())", in: directory, port: port)
            try await upstream.arrived(1, id: id)
            server.signal()
            #expect(await server.exit() == 0, "round \(round):\n\(server.log.suffix(3000))")
        }
    }
}
