import Hummingbird
import Synchronization

/// Bounds the accepts in progress: past the limit, a request is turned away with 429 at once
/// instead of queueing behind storage. A request takes its place once its body is read.
final class InFlightLimiter: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place, or returns false when all are taken.
    func tryEnter() -> Bool {
        while true {
            let current = count.load(ordering: .relaxed)
            guard current < limit else { return false }
            if count.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing).exchanged {
                return true
            }
        }
    }

    /// Gives a place back.
    func leave() {
        count.subtract(1, ordering: .releasing)
    }
}
