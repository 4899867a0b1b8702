import ActionableHTTP
import ActionableStore
import Testing

/// Readiness in one place: the routes reach storage through the gate.
struct StorageGateTests {
    @Test func aClosedGateSaysTheLatestReasonAndAnOpenOneGivesTheStore() async throws {
        let gate = StorageGate(reason: "storage is being opened")
        #expect(Self.reason(gate) == "storage is being opened")
        gate.waiting(because: "connection refused")
        #expect(Self.reason(gate) == "connection refused")
        let store = InMemoryActionStore()
        gate.open(store)
        #expect(try gate.store() as? InMemoryActionStore === store)
        gate.waiting(because: "a later failure")  // an open gate stays open
        #expect(try gate.store() as? InMemoryActionStore === store)
    }

    static func reason(_ gate: StorageGate) -> String? {
        do {
            _ = try gate.store()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func waitersResumeWhenTheGateOpens() async throws {
        let gate = StorageGate(reason: "not yet")
        let store = InMemoryActionStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { () async throws -> Void in
                    await gate.waitUntilOpen()
                    let opened = try gate.store()
                    #expect(opened as? InMemoryActionStore === store)
                }
            }
            gate.open(store)
            try await group.waitForAll()
        }
        await gate.waitUntilOpen()  // returns at once once open
    }
}
