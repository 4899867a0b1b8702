import ActionableStore
import CoreMetrics
public import Foundation
public import Logging
import Synchronization
import Tracing

/// The outbox's one worker, the same for every ``Transport``: up to ``concurrency`` attempts in
/// flight, claimed as slots free up (a slow or stalled answer holds its own slot, never the
/// others); poison work — whose leases ran out without an outcome `LeasePolicy.poisonAfter`
/// times — set aside unattempted; each attempt in its span, after its rate limit's slot; outcomes
/// recorded in batches (whatever finished while the previous batch was being written, in one
/// call of ``Transport/record(_:)``); and a stop that lets every attempt in flight finish and be
/// recorded. The endpoints' worker (``EndpointWorker``) runs one per endpoint.
///
/// Metrics, once here for every transport: each attempt in
/// `actionable_outbox_attempts_total{transport, outcome}` by the outcome storage recorded (an
/// attempt that ran out of retries as its endpoint's breaker opened is `held`, not `dead`), or by
/// its own when the write was lost; each recorded outcome in the transport's own counter
/// (``Transport/recordedMetric``) by its label.
public struct OutboxLoop<T: Transport>: Sendable {
    public let transport: T
    /// The most attempts in flight (`--endpoint-concurrency` for an endpoint).
    public let concurrency: Int
    public let logger: Logger
    private let counters: CounterCache?

    /// The worker of `transport`, with its settings' concurrency, logger and metrics.
    public init(_ transport: T) {
        self.transport = transport
        concurrency = max(1, transport.settings.concurrency)
        logger = transport.settings.logger
        counters = transport.settings.counters  // made once per transport's settings, not once per loop
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
        let recorder = BatchRecorder(transport: transport, counters: counters)
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
        let recorder = BatchRecorder(transport: transport, counters: counters)
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

    /// Claims once at `now` and runs what it claimed as one round (``round(_:)``); returns how
    /// many pieces it claimed. A test's way to run rounds at the times it chooses.
    @discardableResult
    package func round(now: Date) async throws -> Int {
        let claimed = try await transport.claim(limit: concurrency, now: now)
        await round(claimed)
        return claimed.count
    }

    /// One round over work already claimed — a test's way to run rounds at the times it chooses:
    /// attempts every piece at once (poison set aside) through the loop's own path, records the
    /// outcomes in batches, and returns once all are recorded.
    package func round(_ claimed: [T.Work]) async {
        let window = AttemptWindow(limit: max(concurrency, claimed.count))
        let recorder = BatchRecorder(transport: transport, counters: counters)
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

    /// One attempt — after its rate limit's slot, in its span — or the set-aside answer for poison
    /// work.
    func attempt(_ work: T.Work) async -> T.Answer {
        let expired = transport.expiredLeases(of: work)
        let answer: T.Answer
        if expired >= LeasePolicy.poisonAfter {
            logger.error(
                "\(transport.workName) set aside: its leases ran out without an outcome \(expired) times", metadata: transport.metadata(of: work))
            answer = transport.setAside(work, reason: LeasePolicy.poisonReason(expired))
        } else {
            if let slot = transport.notBefore(work), slot.timeIntervalSinceNow > 0 {
                try? await Task.sleep(for: .seconds(slot.timeIntervalSinceNow))
            }
            answer = await withSpan(
                transport.spanName, context: TraceParent.context(transport.traceParent(of: work)), ofKind: transport.spanKind
            ) { span in
                // With tracing off the span records nothing: its attributes are not even made (a
                // fiftieth of a delivered call's CPU, measured).
                if span.isRecording { transport.describe(work, on: span) }
                let answer = await transport.attempt(work)
                if span.isRecording { Self.note(transport.report(of: answer), on: span) }
                return answer
            }
        }
        return answer
    }

    /// Notes how an attempt went on its span: its outcome, the other side's status, and an error
    /// status with the reason when it did not deliver.
    static func note(_ report: AttemptReport, on span: any Span) {
        span.attributes["actionable.outcome"] = report.label
        if let status = report.status { span.attributes["http.response.status_code"] = status }
        if report.outcome != .delivered, let reason = report.reason { span.setStatus(SpanStatus(code: .error, message: reason)) }
    }
}

/// Records finished attempts in batches: whatever finished while the previous batch was being
/// written goes in the next, one ``Transport/record(_:)`` each, so a busy transport costs one
/// write per batch, not one per attempt; counts each outcome written in the transport's counter. Counts the attempts started and not yet recorded
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
    private let counters: CounterCache?
    private let state = Mutex(State())

    init(transport: T, counters: CounterCache?) {
        self.transport = transport
        self.counters = counters
    }

    /// Attempts started and not yet recorded.
    var unrecorded: Int { state.withLock { $0.unrecorded } }

    /// Counts each recorded outcome for the admin page's charts: delivered, retried or dead by way
    /// out, and an endpoint's attempt (its `endpoint` dimension) as delivered or not. A held one
    /// (an attempt given back as the breaker opened) is not a delivery's outcome, but it is the
    /// endpoint's failure.
    private func count(_ reports: [AttemptReport?], of batch: [Finished<T.Work, T.Answer>], in activity: ActivityLog) {
        let now = Date()
        for (finished, report) in zip(batch, reports) {
            guard let report else { continue }
            switch report.outcome {
            case .delivered: activity.count(.delivered, transport.name, at: now)
            case .retry: activity.count(.retried, transport.name, at: now)
            case .dead: activity.count(.dead, transport.name, at: now)
            case .held: break
            }
            if let endpoint = transport.dimensions(of: finished.work).first(where: { $0.0 == "endpoint" })?.1 {
                activity.count(report.outcome == .delivered ? .endpointDelivered : .endpointFailed, endpoint, at: now)
            }
        }
    }

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
            let reports = await transport.record(batch)
            if let activity = transport.settings.activity { count(reports, of: batch, in: activity) }
            if let counters {
                for (finished, report) in zip(batch, reports) {
                    // Every attempt, by what storage made of it (a dead end that came as the
                    // breaker opened is held); one whose write was lost, by its own outcome.
                    let outcome = (report ?? transport.report(of: finished.answer)).outcome
                    counters.counter("actionable_outbox_attempts_total", [("transport", transport.name), ("outcome", outcome.rawValue)])
                        .increment()
                    guard let report else { continue }
                    let dimensions = transport.dimensions(of: finished.work) + [("outcome", report.label)]
                    counters.counter(transport.recordedMetric, dimensions).increment()
                    if let former = transport.formerRecordedMetric { counters.counter(former, dimensions).increment() }
                }
            }
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
