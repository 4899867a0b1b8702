import ActionableWire
import Synchronization
import Testing

/// `withDeadline`: the whole operation within its limit, on its default clock or one the caller
/// gives (the forwarder's event loop).
@Suite(.timeLimit(.minutes(1)))
struct DeadlineTests {
    /// A clock the test fires by hand; it records whether the deadline cancelled it.
    final class ManualTimer: Sendable {
        private struct State {
            var fire: (@Sendable () -> Void)?
            var limit: Duration?
            var cancelled = false
        }
        private let state = Mutex(State())

        var timer: DeadlineTimer {
            { limit, fire in
                self.state.withLock {
                    $0.fire = fire
                    $0.limit = limit
                }
                return { self.state.withLock { $0.cancelled = true } }
            }
        }
        var limit: Duration? { state.withLock { $0.limit } }
        var cancelled: Bool { state.withLock { $0.cancelled } }
        func fire() { state.withLock { $0.fire }?() }
    }

    @Test func whenTheCallersClockFiresTheOperationIsCancelledAndTheDeadlineThrown() async throws {
        let clock = ManualTimer()
        let operationCancelled = Mutex(false)
        let deadline = Task {
            try await withDeadline(.seconds(7), what: "the answer", timer: clock.timer) {
                do { try await Task.sleep(for: .seconds(3600)) } catch { operationCancelled.withLock { $0 = true } }
                return 1
            }
        }
        // The timer is set as the operation starts; firing it ends the wait at once.
        while clock.limit == nil { await Task.yield() }
        #expect(clock.limit == .seconds(7))
        clock.fire()
        await #expect(throws: DeadlineExceeded(limit: .seconds(7), what: "the answer")) { try await deadline.value }
        while !operationCancelled.withLock({ $0 }) { await Task.yield() }
    }

    @Test func anOperationThatEndsFirstGivesItsValueAndCancelsTheTimer() async throws {
        let clock = ManualTimer()
        let value = try await withDeadline(.seconds(7), what: "the answer", timer: clock.timer) { 42 }
        #expect(value == 42)
        #expect(clock.cancelled)
        clock.fire()  // too late: changes nothing
    }

    @Test func theDefaultClockEndsTheWaitEvenIfTheOperationIgnoresCancellation() async throws {
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(10), what: "the answer") {
                await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                return 1
            }
        }
        // The operation still waits: the caller did not.
        while release.withLock({ $0 }) == nil { await Task.yield() }
        release.withLock { $0 }?.resume()
    }
}
