import ActionableCore
import ActionableDelivery
import ActionableRouter
import ActionableStore
import ActionableTestSupport
import ActionableTesting
import Foundation
import Logging
import Testing

struct HandlerWorkerTests {
    static let catalog = try! Catalog(
        yaml: "category: invite\nactions: [{ id: accept, title: A }, { id: decline, title: D }]\n",
        "category: orphan\nactions: [{ id: x, title: X }]\n")
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Outcomes a handler gives, one per call, in order.
    actor Script {
        var outcomes: [Result<HandlerOutcome, any Error>]
        var calls: [(id: String, attempt: Int)] = []
        init(_ outcomes: [Result<HandlerOutcome, any Error>]) { self.outcomes = outcomes }
        func next(_ context: ActionContext) throws -> HandlerOutcome {
            calls.append((context.responseID, context.attempt))
            return try outcomes.removeFirst().get()
        }
    }

    struct Down: Error {}

    func setUp(
        _ script: Script, policy: RetryPolicy = RetryPolicy(maximumAttempts: 4)
    )
        async throws -> (InMemoryActionStore, HandlerTransport)
    {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on(category: "invite") { _, context in try await script.next(context) }
        let store = InMemoryActionStore()
        let worker = HandlerTransport(
            store: store, router: try builder.build(), policy: policy, owner: "w",
            jitter: { 0.5 }, logger: Self.logger)
        return (store, worker)
    }

    func accept(_ store: InMemoryActionStore, _ category: CategoryID = "invite", id: String = "r1") async throws {
        _ = try await store.accept(
            NewResponse(
                id: id,
                response: ActionResponse(
                    category: category, action: category == "invite" ? "accept" : "x",
                    notificationID: "n-\(id)", user: "u"), receivedAt: Date(timeIntervalSince1970: 0)))
    }

    @Test func aDoneHandlerDeliversOnce() async throws {
        let script = Script([.success(.done)])
        let (store, worker) = try await setUp(script)
        try await accept(store)
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 1)) == 1)
        #expect(try await store.response(id: "r1")?.status == .delivered)
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 1000)) == 0)
        #expect(await script.calls.map(\.attempt) == [1])
    }

    /// Lets a test hold a handler mid-delivery.
    actor Gate {
        private var entered: CheckedContinuation<Void, Never>?
        private var hasEntered = false
        private var waiting: CheckedContinuation<Void, Never>?

        func enter() async {
            hasEntered = true
            entered?.resume()
            await withCheckedContinuation { waiting = $0 }
        }

        func untilEntered() async throws {
            try await within("the handler entered") { await self.park() }
        }
        private func park() async {
            if hasEntered { return }
            await withCheckedContinuation { entered = $0 }
        }

        func open() {
            waiting?.resume()
            waiting = nil
        }
    }

    @Test func stoppingTheLoopLetsTheDeliveryInFlightFinishAndBeRecorded() async throws {
        let gate = Gate()
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on(category: "invite") { _, _ in
            await gate.enter()
            try Task.checkCancellation()  // as an HTTP request would, were it cancelled
            return .done
        }
        let store = InMemoryActionStore()
        let worker = HandlerTransport(store: store, router: try builder.build(), owner: "w", logger: Self.logger)
        try await accept(store)
        let running = Task { await OutboxLoop(worker).run() }
        try await gate.untilEntered()
        running.cancel()  // graceful shutdown
        await gate.open()
        await running.value
        #expect(try await store.response(id: "r1")?.status == .delivered)
    }

    @Test func failuresBackOffExponentiallyWithJitterThenDie() async throws {
        // Throw, ask to retry, throw, throw: 4 attempts allowed.
        let script = Script([.failure(Down()), .success(.retry(after: nil)), .failure(Down()), .failure(Down())])
        let (store, worker) = try await setUp(script)
        try await accept(store)
        var now = Date(timeIntervalSince1970: 0)
        var delays: [TimeInterval] = []
        for _ in 0..<3 {
            #expect(try await worker.deliverDue(now: now) == 1)
            let next = try #require(try await store.response(id: "r1")).nextAttemptAt
            delays.append(next.timeIntervalSince(now))
            // Not due a moment before, due at the time.
            #expect(try await worker.deliverDue(now: next.addingTimeInterval(-0.001)) == 0)
            now = next
        }
        // Jitter 0.5 of 1 s, 2 s, 4 s, from the end of each attempt (which takes a moment).
        #expect(delays.map { ($0 * 10).rounded() / 10 } == [0.5, 1, 2])
        #expect(try await worker.deliverDue(now: now) == 1)
        let dead = try #require(try await store.response(id: "r1"))
        #expect(dead.status == .dead)
        #expect(dead.lastError?.hasPrefix("gave up after 4 attempts") == true)
        #expect(await script.calls.map(\.attempt) == [1, 2, 3, 4])
        #expect(Set(await script.calls.map(\.id)) == ["r1"])  // the same id on every attempt
    }

    @Test func aHandlersOwnDelayIsHonoured() async throws {
        let script = Script([.success(.retry(after: .seconds(120))), .success(.done)])
        let (store, worker) = try await setUp(script)
        try await accept(store)
        let started = ContinuousClock.now
        try await worker.deliverDue(now: Date(timeIntervalSince1970: 10))
        let took = (ContinuousClock.now - started).timeInterval
        // 120 s from the end of the attempt, which took at most `took`.
        let next = try #require(try await store.response(id: "r1")?.nextAttemptAt.timeIntervalSince1970)
        #expect(next >= 130 && next <= 130 + took)
        try await worker.deliverDue(now: Date(timeIntervalSince1970: next))
        #expect(try await store.response(id: "r1")?.status == .delivered)
    }

    @Test func aPermanentFailureAndAMissingRouteAreDeadAtOnce() async throws {
        let script = Script([.success(.fail(reason: "invitation deleted"))])
        let (store, worker) = try await setUp(script)
        try await accept(store)
        try await accept(store, "orphan", id: "r2")
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 1)) == 2)
        #expect(try await store.response(id: "r1")?.lastError == "invitation deleted")
        #expect(try await store.response(id: "r1")?.status == .dead)
        #expect(try await store.response(id: "r2")?.status == .dead)
        #expect(try await store.response(id: "r2")?.lastError?.contains("no handler") == true)
    }

    /// With endpoints as data, a response nothing takes is accepted and held — not dead — with
    /// the reason; an endpoint created later receives it (its delivery is made on the next round).
    @Test func aResponseNoEndpointTakesIsHeldThenDeliveredToANewEndpoint() async throws {
        let store = InMemoryActionStore()
        var worker = HandlerTransport(store: store, router: nil, owner: "w", jitter: { 0.5 }, logger: Self.logger)
        worker.endpoints = store
        _ = try await store.createEndpoint(
            Endpoint(
                id: "invites", url: "http://127.0.0.1:9/hook", filter: ["invite.*"], secret: "whsec_one", createdAt: Date(timeIntervalSince1970: 0)))
        try await accept(store, "orphan", id: "r2")
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 1)) == 1)
        let held = try #require(try await store.response(id: "r2"))
        #expect(held.status == .held)
        #expect(held.lastError?.contains("no endpoint takes orphan.x") == true)
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 2)) == 0)  // not claimed again
        _ = try await store.createEndpoint(
            Endpoint(id: "orphans", url: "http://127.0.0.1:9/o", filter: ["orphan.*"], secret: "whsec_one", createdAt: Date(timeIntervalSince1970: 3))
        )
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: 3)) == 1)
        #expect(try await store.endpointDeliveries(responseID: "r2").map(\.endpointID) == ["orphans"])
        #expect(try await store.response(id: "r2")?.status == .pending)
    }

    /// A response whose leases ran out without an outcome three times is set aside as dead,
    /// its handler never called again.
    @Test func aPoisonResponseIsSetAsideWithoutCallingItsHandler() async throws {
        let script = Script([])
        let (store, worker) = try await setUp(script)
        try await accept(store)
        var time: TimeInterval = 1
        for _ in 0..<3 {
            #expect(try await store.claimDue(now: Date(timeIntervalSince1970: time), limit: 1, lease: 10, owner: "crashed").count == 1)
            time += 11  // the process "died": the lease runs out
        }
        #expect(try await worker.deliverDue(now: Date(timeIntervalSince1970: time)) == 1)
        let dead = try #require(try await store.response(id: "r1"))
        #expect(dead.status == .dead)
        #expect(dead.lastError == LeasePolicy.poisonReason(3))
        #expect(await script.calls.isEmpty)
    }

    @Test func theBackoffIsCappedAndFullyJittered() {
        let policy = RetryPolicy()
        #expect(policy.delay(afterAttempt: 1, unit: 0.999) < 1)
        #expect(policy.delay(afterAttempt: 4, unit: 1) == 8)
        #expect(policy.delay(afterAttempt: 30, unit: 1) == 3600)
        #expect(policy.delay(afterAttempt: 30, unit: 0) == 0)
    }

    @Test func retriesGoOnForTheWholeWindowAndTheLastOneFallsOnTheDeadline() {
        let policy = RetryPolicy()  // 24 hours
        let queued = Date(timeIntervalSince1970: 0)
        // Even the largest delays keep a response alive for 24 hours: count the tries.
        var now = queued
        var attempt = 1
        while let next = policy.nextAttempt(afterAttempt: attempt, queuedAt: queued, now: now, unit: 1) {
            now = next
            attempt += 1
        }
        #expect(now == queued.addingTimeInterval(24 * 3600))
        #expect(attempt > 30)
        // Past the old 15 tries and 40 minutes it is still retried.
        #expect(policy.nextAttempt(afterAttempt: 15, queuedAt: queued, now: queued.addingTimeInterval(2400), unit: 0.5) != nil)
        // A Retry-After past the deadline is cut to it; at the deadline the response is dead.
        let late = queued.addingTimeInterval(24 * 3600 - 10)
        #expect(policy.nextAttempt(afterAttempt: 40, queuedAt: queued, now: late, unit: 0.5, requested: 600) == queued.addingTimeInterval(24 * 3600))
        #expect(policy.nextAttempt(afterAttempt: 41, queuedAt: queued, now: queued.addingTimeInterval(24 * 3600), unit: 0.5) == nil)
        // With a count as well, the count can end it first.
        #expect(RetryPolicy(maximumAttempts: 3).nextAttempt(afterAttempt: 3, queuedAt: queued, now: queued, unit: 0.5) == nil)
    }

    /// `Retry-After: 0` (or a date in the past) waits the first delay, not nothing: no hot loop.
    /// A day-long one waits an hour at most.
    @Test func anUpstreamsRequestedDelayIsHeldWithinTheFirstDelayAndAnHour() async throws {
        let policy = RetryPolicy(firstDelay: 2)
        let queued = Date(timeIntervalSince1970: 0)
        let now = Date(timeIntervalSince1970: 100)
        #expect(policy.nextAttempt(afterAttempt: 1, queuedAt: queued, now: now, unit: 0.5, requested: 0) == now.addingTimeInterval(2))
        #expect(policy.nextAttempt(afterAttempt: 1, queuedAt: queued, now: now, unit: 0.5, requested: 30) == now.addingTimeInterval(30))
        #expect(policy.nextAttempt(afterAttempt: 1, queuedAt: queued, now: now, unit: 0.5, requested: 86400) == now.addingTimeInterval(3600))
        // A peer's absurd numbers: the longest delay allowed (here the backoff's cap), never a trap.
        let capped = RetryPolicy(firstDelay: 2, maximumDelay: 60)
        for absurd in [9.223372036854775807e18, 1e308, .greatestFiniteMagnitude] {
            #expect(capped.nextAttempt(afterAttempt: 1, queuedAt: queued, now: now, unit: 0.5, requested: absurd) == now.addingTimeInterval(60))
        }
        for unreadable in [TimeInterval.nan, .infinity, -.infinity] {
            #expect(capped.nextAttempt(afterAttempt: 1, queuedAt: queued, now: now, unit: 0.5, requested: unreadable) == now.addingTimeInterval(1))
        }

        // Through the worker: an upstream that always says "retry now" is tried once per first
        // delay, counted in a bounded window of simulated time.
        let script = Script(Array(repeating: .success(.retry(after: .zero)), count: 50))
        let (store, worker) = try await setUp(script, policy: RetryPolicy(firstDelay: 1, maximumDelay: 60))
        try await accept(store)
        var attempts = 0
        for tenth in 0...100 {  // 10 simulated seconds, a round every 100 ms
            attempts += try await worker.deliverDue(now: Date(timeIntervalSince1970: 1 + Double(tenth) / 10))
        }
        #expect(attempts <= 10, "\(attempts) attempts in 10 s with a first delay of 1 s")
        #expect(attempts >= 2)  // the first, and at least one after its first delay
    }

    /// The backoff is counted from the end of an attempt: a slow attempt does not eat it.
    @Test func backoffCountsFromTheEndOfAnAttempt() async throws {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on(category: "invite") { _, _ in
            try await Task.sleep(for: .milliseconds(300))  // a slow upstream, not a synchronisation
            return .retry(after: .seconds(5))
        }
        let store = InMemoryActionStore()
        let worker = HandlerTransport(store: store, router: try builder.build(), owner: "w", jitter: { 0.5 }, logger: Self.logger)
        try await accept(store)
        try await worker.deliverDue(now: Date(timeIntervalSince1970: 10))
        let next = try #require(try await store.response(id: "r1")?.nextAttemptAt.timeIntervalSince1970)
        #expect(next >= 15.3, "the next attempt is due at \(next), before 5 s after the attempt ended")
    }
}
