import Synchronization

/// What a run of sends measured: how long it took, which failed, and each send's latency.
public struct SendLoad: Sendable {
    /// Wall-clock seconds from the first send to the last answer.
    public var seconds: Double
    /// Sends that answered anything but success.
    public var failures: Int
    /// Every send's latency in milliseconds, sorted.
    public var latencies: [Double]

    /// Runs `send(0)` … `send(count - 1)` with `concurrency` in flight (each task takes the next
    /// index as the previous answers), timing each; `send` answers whether it succeeded.
    public static func run(count: Int, concurrency: Int, _ send: @escaping @Sendable (Int) async -> Bool) async -> SendLoad {
        let next = Atomic<Int>(0)
        let started = ContinuousClock.now
        let (latencies, failures) = await withTaskGroup(of: ([Double], Int).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [Double] = []
                    var failures = 0
                    while true {
                        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < count else { break }
                        let start = ContinuousClock.now
                        if !(await send(index)) { failures += 1 }
                        latencies.append(milliseconds(ContinuousClock.now - start))
                    }
                    return (latencies, failures)
                }
            }
            var all: [Double] = []
            var failed = 0
            for await (latencies, failures) in group {
                all += latencies
                failed += failures
            }
            return (all, failed)
        }
        return SendLoad(seconds: milliseconds(ContinuousClock.now - started) / 1000, failures: failures, latencies: latencies.sorted())
    }

    /// The latency at `p` (0…1), in milliseconds; 0 when nothing was sent.
    public func percentile(_ p: Double) -> Double {
        latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
