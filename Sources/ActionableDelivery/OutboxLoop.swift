import ActionableStore
import CoreMetrics
import Foundation
import Logging
import Synchronization

/// The outbox's one loop, the same for every ``Transport``: up to ``concurrency`` attempts in
/// flight, claimed as slots free up (a slow or stalled answer holds its own slot, never the
/// others); poison work — whose leases ran out without an outcome `LeasePolicy.poisonAfter`
/// times — set aside unattempted; outcomes recorded in batches (whatever finished while the
/// previous batch was being written, in one call of ``Transport/record(_:)``); and a stop that
/// lets every attempt in flight finish and be recorded.
///
/// Each attempt is counted in `actionable_outbox_attempts_total{transport, outcome}`.
public struct OutboxLoop<T: Transport>: Sendable {
    public let transport: T
    /// The most attempts in flight (`--endpoint-concurrency` for an endpoint).
    public let concurrency: Int
    public let logger: Logger
    /// Where the attempt counts go; none when `nil`.
    public var metricsFactory: (any MetricsFactory)? {
        didSet { counters = metricsFactory.map(CounterCache.init) }
    }
    private var counters: CounterCache?

    /// The loop over `transport` with a worker's `settings` (its concurrency, logger and metrics).
    public init(transport: T, settings: OutboxSettings) {
        self.init(transport: transport, concurrency: settings.concurrency, logger: settings.logger, metricsFactory: settings.metricsFactory)
        counters = settings.counters  // made once per worker, not once per loop
    }

    public init(transport: T, concurrency: Int, logger: Logger, metricsFactory: (any MetricsFactory)? = nil) {
        self.transport = transport
        self.concurrency = max(1, concurrency)
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.counters = metricsFactory.map(CounterCache.init)
    }

    /// How many free slots a claim waits for while attempts are in flight: half the window. A
    /// claim is a write (the lease) and a read of its responses, so the window is refilled many
    /// slots at a time, not one claim per answer (half rather than a quarter: 141 against 151 µs
    /// of CPU per delivered call, measured with `Benchmarks/drain-cost.sh`); the attempts in
    /// flight go on meanwhile, and a slow one still holds only its own slot.
    var refill: Int { max(1, concurrency / 2) }

    /// Attempts what is due until nothing is (or `proceed` says stop), then returns once every
    /// attempt it started is recorded; returns how many pieces it claimed. A failed claim ends
    /// the drain (logged); the next drain tries again.
    @discardableResult
    public func drain(while proceed: @Sendable () -> Bool = { true }) async -> Int {
        let window = AttemptWindow(limit: concurrency)
        let recorder = BatchRecorder(transport: transport)
        var total = 0
        while proceed() {
            guard window.room >= refill || window.inFlight == 0 else {
                await window.waitForRoom(refill)
                continue
            }
            // Answers not yet written hold their leases; past a window's worth more, wait for them.
            guard recorder.unrecorded < 2 * concurrency else {
                await recorder.waitForRoom(below: 2 * concurrency)
                continue
            }
            let claimed: [T.Work]
            do {
                claimed = try await transport.claim(limit: window.room, now: Date())
            } catch {
                logger.error("could not claim \(transport.name) work", metadata: ["error": "\(error)"])
                break
            }
            guard !claimed.isEmpty else {
                // Nothing due now: once an attempt in flight ends, or an outcome is written, there
                // may be more (a retry, a freed rate slot, a breaker closed by a probe's success);
                // with neither left, the drain is done.
                if window.inFlight > 0 {
                    await window.waitForNextEnd()
                    continue
                }
                if recorder.unrecorded > 0 {
                    await recorder.waitUntilRecorded()
                    continue
                }
                break
            }
            total += claimed.count
            start(claimed, in: window, recordingWith: recorder)
        }
        await window.waitUntilEmpty()
        await recorder.waitUntilRecorded()
        return total
    }

    /// Runs until cancelled: claims into the window as slots free up, and when nothing is due
    /// waits for `wake` (new work recorded) or `idle`. Cancelling stops the claims, not the
    /// attempts in flight: they end (each within its transport's deadline) and are recorded
    /// before this returns.
    public func run(wake: (@Sendable (Duration) async -> Void)? = nil, idle: Duration = .milliseconds(500)) async {
        let window = AttemptWindow(limit: concurrency)
        let recorder = BatchRecorder(transport: transport)
        let rounds = WorkerRounds(idle: idle, what: transport.name, logger: logger)
        await rounds.run(wake: wake) {
            guard window.room >= refill || window.inFlight == 0 else {
                await window.waitForRoom(refill)
                return 1  // room enough: claim again at once
            }
            guard recorder.unrecorded < 2 * concurrency else {
                await recorder.waitForRoom(below: 2 * concurrency)
                return 1
            }
            let claimed = try await transport.claim(limit: window.room, now: Date())
            start(claimed, in: window, recordingWith: recorder)
            return claimed.count
        }
        await window.waitUntilEmpty()
        await recorder.waitUntilRecorded()
    }

    /// One round over work already claimed — a test's way to run rounds at the times it chooses:
    /// attempts every piece at once (poison set aside) through the loop's own path, records the
    /// outcomes in batches, and returns once all are recorded.
    public func round(_ claimed: [T.Work]) async {
        let window = AttemptWindow(limit: max(concurrency, claimed.count))
        let recorder = BatchRecorder(transport: transport)
        start(claimed, in: window, recordingWith: recorder)
        await window.waitUntilEmpty()
        await recorder.waitUntilRecorded()
    }

    /// Starts an attempt per piece, each in a slot of `window` freed once it is answered: the
    /// window is refilled as answers come, not as they are written. The outcomes go to `recorder`;
    /// the deliveries stay leased to this owner until they are recorded, so none is claimed twice.
    private func start(_ claimed: [T.Work], in window: AttemptWindow, recordingWith recorder: BatchRecorder<T>) {
        for work in claimed {
            window.take()
            recorder.expect()
            // Not a child task: the loop's end or cancellation must not cut an attempt short.
            Task {
                let answer = await attempt(work)
                window.release()
                await recorder.record(Finished(work: work, answer: answer))
            }
        }
    }

    /// One attempt, or the set-aside answer for poison work; counted.
    func attempt(_ work: T.Work) async -> T.Answer {
        let expired = transport.expiredLeases(of: work)
        let answer: T.Answer
        if expired >= LeasePolicy.poisonAfter {
            logger.error(
                "\(transport.workName) set aside: its leases ran out without an outcome \(expired) times", metadata: transport.metadata(of: work))
            answer = transport.setAside(work, reason: LeasePolicy.poisonReason(expired))
        } else {
            answer = await transport.attempt(work)
        }
        counters?.counter("actionable_outbox_attempts_total", [("transport", transport.name), ("outcome", transport.outcome(of: answer).rawValue)])
            .increment()
        return answer
    }
}

/// Records finished attempts in batches: whatever finished while the previous batch was being
/// written goes in the next, one ``Transport/record(_:)`` each, so a busy transport costs one
/// write per batch, not one per attempt. Counts the attempts started and not yet recorded
/// (``expect()`` to ``record(_:)``), so that the loop can bound them and wait for the last.
final class BatchRecorder<T: Transport>: Sendable {
    private struct State {
        var pending: [Finished<T.Work, T.Answer>] = []
        var writing = false
        /// Attempts started whose outcome is not yet written.
        var unrecorded = 0
        var waiters: [(below: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let transport: T
    private let state = Mutex(State())

    init(transport: T) { self.transport = transport }

    /// Attempts started and not yet recorded.
    var unrecorded: Int { state.withLock { $0.unrecorded } }

    /// An attempt started: its outcome will be recorded.
    func expect() { state.withLock { $0.unrecorded += 1 } }

    /// Hands over an attempt's outcome; it is written with the next batch.
    func record(_ finished: Finished<T.Work, T.Answer>) async {
        let write = state.withLock { state -> Bool in
            state.pending.append(finished)
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if write { await self.write() }
    }

    private func write() async {
        while true {
            let batch = state.withLock { state -> [Finished<T.Work, T.Answer>] in
                defer { state.pending = [] }
                if state.pending.isEmpty { state.writing = false }
                return state.pending
            }
            guard !batch.isEmpty else { return }
            await transport.record(batch)
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.unrecorded -= batch.count
                var ready: [CheckedContinuation<Void, Never>] = []
                state.waiters.removeAll { waiter in
                    guard state.unrecorded < waiter.below else { return false }
                    ready.append(waiter.continuation)
                    return true
                }
                return ready
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Returns once fewer than `below` attempts are unrecorded.
    func waitForRoom(below: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard state.unrecorded >= below else { return true }
                state.waiters.append((below, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Returns once every attempt started is recorded.
    func waitUntilRecorded() async { await waitForRoom(below: 1) }
}
