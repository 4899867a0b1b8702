import Synchronization

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
