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

/// Remembers which keys were seen, to log something once per key; bounded, it forgets
/// everything when full (so a key may be logged again after many others).
final class SightingLog: Sendable {
    private let seen = Mutex(Set<String>())
    private let capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Whether `key` is seen for the first time (recording it).
    func firstSighting(of key: String) -> Bool {
        seen.withLock { seen in
            if seen.count >= capacity { seen.removeAll(keepingCapacity: true) }
            return seen.insert(key).inserted
        }
    }
}
