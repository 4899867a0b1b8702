import CoreMetrics
import Synchronization

/// Counters made once per label and dimensions, then reused: making one per attempt (the
/// factory's lookup, and a `Counter` allocated each time) was about a hundredth of a delivered
/// call's CPU, measured.
final class CounterCache: Sendable {
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
    }
    private let factory: any MetricsFactory
    private let counters = Mutex<[Key: Counter]>([:])

    init(factory: any MetricsFactory) { self.factory = factory }

    /// The counter `label` with `dimensions`, made on first use.
    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = Key(label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        if let counter = counters.withLock({ $0[key] }) { return counter }
        let counter = Counter(label: label, dimensions: dimensions, factory: factory)
        return counters.withLock { counters in
            if let existing = counters[key] { return existing }
            counters[key] = counter
            return counter
        }
    }
}
