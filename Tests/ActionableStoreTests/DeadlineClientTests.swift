import ActionableStore
import Testing

@testable import ActionablePostgres

/// The race every PostgreSQL call runs in: its work, its deadline and its caller's cancellation,
/// the first to end deciding (no database needed).
struct DeadlineClientTests {
    @Test func workThatEndsInTimeGivesItsResult() async throws {
        #expect(try await DeadlineClient.within(.seconds(60), "fast") { 42 } == 42)
    }

    @Test func workPastTheDeadlineIsAStoreErrorNamingIt() async throws {
        let error = await #expect(throws: StoreError.self) {
            try await DeadlineClient.within(.milliseconds(20), "SELECT pg_sleep(600)") {
                try await Task.sleep(for: .seconds(600))
                return 1
            }
        }
        #expect(error?.description.contains("SELECT pg_sleep(600)") == true)
    }

    @Test func theWorksErrorIsTheCallers() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await DeadlineClient.within(.seconds(60), "refused") { () async throws -> Int in throw Refused() } }
    }

    @Test func cancellingTheCallerEndsTheCallAtOnce() async throws {
        let call = Task {
            try await DeadlineClient.within(.seconds(600), "held") {
                try await Task.sleep(for: .seconds(600))
                return 1
            }
        }
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }
}
