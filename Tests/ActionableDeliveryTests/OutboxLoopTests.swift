import ActionableDelivery
import ActionableStore
import ActionableTestSupport
import CoreMetrics
import Foundation
import Logging
import MetricsTestKit
import Testing
import Tracing

/// The outbox's one loop over a transport of the test's own: the window, poison work, the records.
@Suite(.timeLimit(.minutes(1)))
struct OutboxLoopTests {
    /// A queue of numbered pieces whose attempts park until the test lets them end.
    actor Queue {
        var due: [(id: Int, expiredLeases: Int)]
        private(set) var claimLimits: [Int] = []
        private(set) var started: [Int] = []
        private(set) var recorded: [(id: Int, answer: String)] = []
        private(set) var inFlight = 0
        private(set) var mostInFlight = 0
        private var parked: [Int: CheckedContinuation<Void, Never>] = [:]
        private var open = false
        private var startWaiters: [(Int, CheckedContinuation<Void, Never>)] = []

        init(_ due: [(id: Int, expiredLeases: Int)]) { self.due = due }

        func claim(limit: Int) -> [(id: Int, expiredLeases: Int)] {
            claimLimits.append(limit)
            let taken = Array(due.prefix(limit))
            due.removeFirst(taken.count)
            return taken
        }

        func attempt(_ id: Int) async {
            started.append(id)
            mostUnrecorded = max(mostUnrecorded, started.count - recorded.count)
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
            startWaiters.removeAll { waiter in
                guard started.count >= waiter.0 else { return false }
                waiter.1.resume()
                return true
            }
            if !open { await withCheckedContinuation { parked[id] = $0 } }
            inFlight -= 1
        }

        /// Started and not yet recorded, at most, as each attempt started.
        private(set) var mostUnrecorded = 0
        private var recordsHeld = false
        private var heldRecords: [CheckedContinuation<Void, Never>] = []

        func record(_ items: [(Int, String)]) async {
            if recordsHeld { await withCheckedContinuation { heldRecords.append($0) } }
            recorded += items.map { (id: $0.0, answer: $0.1) }
            recordWaiters.removeAll { waiter in
                guard recorded.count >= waiter.0 else { return false }
                waiter.1.resume()
                return true
            }
        }
        private var recordWaiters: [(Int, CheckedContinuation<Void, Never>)] = []

        func untilRecorded(_ count: Int) async throws {
            try await within("\(count) attempts recorded") { await self.parkUntilRecorded(count) }
        }
        private func parkUntilRecorded(_ count: Int) async {
            if recorded.count >= count { return }
            await withCheckedContinuation { recordWaiters.append((count, $0)) }
        }

        /// Records wait until ``releaseRecords()``.
        func holdRecords() { recordsHeld = true }

        func releaseRecords() {
            recordsHeld = false
            for continuation in heldRecords { continuation.resume() }
            heldRecords = []
        }

        /// Lets attempt `id` end.
        func release(_ id: Int) { parked.removeValue(forKey: id)?.resume() }

        /// Lets every attempt end, now and later.
        func openAll() {
            open = true
            for continuation in parked.values { continuation.resume() }
            parked = [:]
        }

        func untilStarted(_ count: Int) async throws {
            try await within("\(count) attempts started") { await self.park(count) }
        }
        private func park(_ count: Int) async {
            if started.count >= count { return }
            await withCheckedContinuation { startWaiters.append((count, $0)) }
        }
    }

    struct Numbers: Transport {
        struct Work: Sendable {
            var id: Int
            var expiredLeases: Int
        }
        let queue: Queue
        var settings: OutboxSettings

        init(queue: Queue, concurrency: Int, metrics: (any MetricsFactory)? = nil) {
            self.queue = queue
            settings = OutboxSettings(owner: "numbers", concurrency: concurrency, logger: OutboxLoopTests.logger, metricsFactory: metrics)
        }

        var name: String { "numbers" }
        var workName: String { "number" }
        var spanName: String { "numbers.attempt" }
        var spanKind: SpanKind { .internal }
        var recordedMetric: String { "numbers_recorded_total" }
        var formerRecordedMetric: String? { "numbers_formerly_total" }
        func traceParent(of work: Work) -> String? { nil }
        func describe(_ work: Work, on span: any Span) {}
        func dimensions(of work: Work) -> [(String, String)] { [("parity", work.id % 2 == 0 ? "even" : "odd")] }
        func metadata(of work: Work) -> Logger.Metadata { ["id": "\(work.id)"] }
        func claim(limit: Int, now: Date) async throws -> [Work] {
            await queue.claim(limit: limit).map { Work(id: $0.id, expiredLeases: $0.expiredLeases) }
        }
        func expiredLeases(of work: Work) -> Int { work.expiredLeases }
        /// Number 77 runs out of retries; every other number is delivered.
        func attempt(_ work: Work) async -> String {
            await queue.attempt(work.id)
            return work.id == 77 ? "out of retries" : "delivered"
        }
        func setAside(_ work: Work, reason: String) -> String { "set aside: \(reason)" }
        func report(of answer: String) -> AttemptReport {
            answer == "delivered" ? AttemptReport(.delivered, label: "delivered") : AttemptReport(.dead, label: "dead", reason: answer)
        }
        /// Records all but number 13 (its write "lost": no report, not counted); number 77 as
        /// storage holds a delivery whose endpoint's breaker opened as it ran out of retries.
        func record(_ finished: [Finished<Work, String>]) async -> [AttemptReport?] {
            await queue.record(finished.map { ($0.work.id, $0.answer) })
            return finished.map {
                switch $0.work.id {
                case 13: nil
                case 77: AttemptReport(.held, label: "held", reason: $0.answer)
                default: report(of: $0.answer)
                }
            }
        }
    }

    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Seven pieces, a window of three: three are claimed and attempted; when one ends, one more
    /// is claimed at once (not a batch of three once all three end); never more than three at a
    /// time, and every piece is recorded once before the drain returns.
    @Test func theWindowHoldsItsConcurrencyAndRefillsAsEachAttemptEnds() async throws {
        let queue = Queue((0..<7).map { (id: $0, expiredLeases: 0) })
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 3))
        let drain = Task { await loop.drain() }
        try await queue.untilStarted(3)
        #expect(await queue.claimLimits == [3])
        #expect(await queue.inFlight == 3)
        let first = try #require(await queue.started.first)
        await queue.release(first)  // the other two still hold their slots
        try await queue.untilStarted(4)
        #expect(await queue.claimLimits.last == 1)
        #expect(await queue.inFlight == 3)
        await queue.openAll()
        #expect(await drain.value == 7)
        #expect(await queue.mostInFlight == 3)
        let recorded = await queue.recorded
        #expect(recorded.map(\.id).sorted() == Array(0..<7))
        #expect(recorded.allSatisfy { $0.answer == "delivered" })
    }

    /// A window of eight is refilled four slots at a time (a claim is a write): three attempts
    /// ending claim nothing yet, the fourth claims four; the four still in flight are never held
    /// up.
    @Test func aWideWindowIsRefilledHalfAtATime() async throws {
        let queue = Queue((0..<12).map { (id: $0, expiredLeases: 0) })
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 8))
        let drain = Task { await loop.drain() }
        try await queue.untilStarted(8)
        #expect(await queue.claimLimits == [8])
        for id in 0..<3 { await queue.release(id) }
        try await queue.untilRecorded(3)
        #expect(await queue.claimLimits == [8])  // three free slots: no claim yet
        await queue.release(3)
        try await queue.untilStarted(12)
        #expect(await queue.claimLimits == [8, 4])
        await queue.openAll()
        #expect(await drain.value == 12)
        #expect(await queue.mostInFlight == 8)
        #expect(await queue.recorded.map(\.id).sorted() == Array(0..<12))
    }

    /// A slot is freed when its attempt is answered, not when the outcome is written: with the
    /// writes held, a window of two goes on attempting — up to twice the window unwritten (their
    /// leases keep them from a second claim), then it waits; once the writes go through, every
    /// piece is recorded once and the drain returns.
    @Test func theWindowIsRefilledAsAnswersComeAndUnwrittenAnswersAreBounded() async throws {
        let queue = Queue((0..<20).map { (id: $0, expiredLeases: 0) })
        await queue.openAll()
        await queue.holdRecords()
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 2))
        let drain = Task { await loop.drain() }
        try await queue.untilStarted(4)  // more than the window, none recorded
        #expect(await queue.recorded.isEmpty)
        await queue.releaseRecords()
        #expect(await drain.value == 20)
        #expect(await queue.mostUnrecorded == 4)
        #expect(await queue.recorded.map(\.id).sorted() == Array(0..<20))
    }

    /// A piece whose leases ran out three times without an outcome is recorded as set aside with
    /// the reason, never attempted; the piece beside it is attempted as usual.
    @Test func poisonWorkIsSetAsideUnattempted() async throws {
        let queue = Queue([(id: 1, expiredLeases: LeasePolicy.poisonAfter), (id: 2, expiredLeases: LeasePolicy.poisonAfter - 1)])
        await queue.openAll()
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 4))
        #expect(await loop.drain() == 2)
        #expect(await queue.started == [2])
        let recorded = await queue.recorded.sorted { $0.id < $1.id }
        #expect(recorded.map(\.id) == [1, 2])
        #expect(recorded[0].answer == "set aside: \(LeasePolicy.poisonReason(LeasePolicy.poisonAfter))")
        #expect(recorded[1].answer == "delivered")
    }

    /// Cancelling `run` stops the claims, not the attempt in flight: it ends and is recorded
    /// before `run` returns, and nothing more is claimed.
    @Test func cancellingTheRunLetsTheAttemptInFlightFinishAndBeRecorded() async throws {
        let queue = Queue([(id: 1, expiredLeases: 0), (id: 2, expiredLeases: 0)])
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 1))
        let running = Task { await loop.run(idle: .milliseconds(10)) }
        try await queue.untilStarted(1)
        running.cancel()
        await queue.release(1)
        await running.value
        #expect(await queue.recorded.map(\.id) == [1])
        #expect(await queue.started == [1])
    }

    /// The loop counts for every transport, once: each attempt (set aside included) in
    /// `actionable_outbox_attempts_total` by the one vocabulary — by what storage recorded (77's
    /// dead end held), by its own outcome when the write was lost (13) — and each outcome written
    /// in the transport's own counter by its label and the work's dimensions — not one whose write
    /// was lost.
    @Test func theLoopCountsEveryAttemptAndEveryOutcomeWrittenOnce() async throws {
        let metrics = TestMetrics()
        let queue = Queue([
            (id: 1, expiredLeases: LeasePolicy.poisonAfter), (id: 2, expiredLeases: 0), (id: 3, expiredLeases: 0), (id: 13, expiredLeases: 0),
            (id: 77, expiredLeases: 0),
        ])
        await queue.openAll()
        let loop = OutboxLoop(Numbers(queue: queue, concurrency: 4, metrics: metrics))
        #expect(await loop.drain() == 5)
        func count(_ label: String, _ dimensions: [(String, String)]) throws -> Int64 {
            try metrics.expectCounter(label, dimensions).totalValue
        }
        #expect(try count("actionable_outbox_attempts_total", [("transport", "numbers"), ("outcome", "delivered")]) == 3)
        #expect(try count("actionable_outbox_attempts_total", [("transport", "numbers"), ("outcome", "dead")]) == 1)
        #expect(try count("actionable_outbox_attempts_total", [("transport", "numbers"), ("outcome", "held")]) == 1)  // 77
        #expect(try count("numbers_recorded_total", [("parity", "odd"), ("outcome", "held")]) == 1)  // 77
        #expect(try count("numbers_recorded_total", [("parity", "odd"), ("outcome", "delivered")]) == 1)  // 3; 13's write was lost
        #expect(try count("numbers_recorded_total", [("parity", "odd"), ("outcome", "dead")]) == 1)  // 1, set aside
        #expect(try count("numbers_recorded_total", [("parity", "even"), ("outcome", "delivered")]) == 1)  // 2
        // A renamed counter is counted under its former name too, the same (one release).
        #expect(try count("numbers_formerly_total", [("parity", "odd"), ("outcome", "delivered")]) == 1)
        #expect(try count("numbers_formerly_total", [("parity", "odd"), ("outcome", "dead")]) == 1)
        #expect(try count("numbers_formerly_total", [("parity", "even"), ("outcome", "delivered")]) == 1)
    }
}
