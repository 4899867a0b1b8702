import ActionableCore
import Foundation
import Synchronization
import Testing

@testable import ActionableStore

/// Endpoints and their deliveries, on every driver: fan-out, the breaker holding deliveries
/// without spending attempts, pause, the rate's slots, the response's summary and re-queues.
struct EndpointStoreConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }
    static let breaker = BreakerSettings(failures: 2, probeEvery: 60)

    static func endpoint(_ id: String, rate: Double? = nil) -> Endpoint {
        Endpoint(id: id, url: "https://\(id).example/hook", filter: ["invite.*"], secret: "whsec_one", rateLimit: rate, createdAt: at(1))
    }

    /// Accepts `count` responses, claims them for routing and fans each out to `endpoints`.
    static func fanned(_ store: any ActionStore, count: Int, to endpoints: [String], at time: TimeInterval = 1_000) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            let id = "r-\(index)"
            _ = try await store.accept(StoreConformanceTests.action("n-\(index)", id: id, at: time))
            ids.append(id)
        }
        let claimed = try await store.claimDue(now: at(time), limit: 100, lease: 60, owner: "router")
        #expect(claimed.count == count)
        try await store.fanOut(claimed.map { FanOut(responseID: $0.id, endpointIDs: endpoints) }, owner: "router", at: at(time))
        return ids
    }

    @Test(arguments: Driver.available)
    func endpointsAreCreatedOnceChangedAndKept(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.createEndpoint(Self.endpoint("b", rate: 5)))
        #expect(try await store.createEndpoint(Self.endpoint("a")))
        #expect(try await store.createEndpoint(Self.endpoint("a")) == false)
        #expect(try await store.endpoints().map(\.id) == ["a", "b"])
        #expect(try await store.endpoint(id: "b") == Self.endpoint("b", rate: 5))
        #expect(try await store.endpoint(id: "c") == nil)  // read alone, on every driver

        let rotated = try #require(
            try await store.updateEndpoint(id: "a", EndpointChange(filter: ["*"], secret: "whsec_two", rateLimit: .some(nil)), at: Self.at(5)))
        #expect(rotated.secret == "whsec_two" && rotated.previousSecret == "whsec_one" && rotated.filter == ["*"])
        #expect(try await store.endpoint(id: "a") == rotated)
        let dropped = try await store.updateEndpoint(id: "a", EndpointChange(dropPreviousSecret: true, paused: true), at: Self.at(6))
        #expect(dropped?.previousSecret == nil && dropped?.paused == true && dropped?.state == .paused)
        #expect(try await store.updateEndpoint(id: "missing", EndpointChange(paused: true), at: Self.at(6)) == nil)
        let unlimited = try await store.updateEndpoint(id: "b", EndpointChange(rateLimit: .some(nil)), at: Self.at(6))
        #expect(unlimited?.rateLimit == nil)
    }

    /// A poll says which endpoints have a delivery a claim would take: due, pending, its lease free
    /// or run out; not one leased, delivered or due later.
    @Test(arguments: Driver.available)
    func aPollSaysWhichEndpointsHaveDueDeliveries(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["a", "b", "c"] { _ = try await store.createEndpoint(Self.endpoint(id)) }
        func due(at time: TimeInterval) async throws -> [String] {
            try await store.polledEndpoints(at: Self.at(time)).filter(\.hasDueDeliveries).map(\.endpoint.id)
        }
        #expect(try await store.polledEndpoints(at: Self.at(999)).map(\.endpoint.id) == ["a", "b", "c"])
        #expect(try await due(at: 999) == [])
        _ = try await Self.fanned(store, count: 1, to: ["a", "b"], at: 1_000)
        #expect(try await due(at: 999) == [])  // not due yet
        #expect(try await due(at: 1_000) == ["a", "b"])
        _ = try await store.claimDeliveries(endpointID: "a", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(try await due(at: 1_001) == ["b"])  // a's is leased
        #expect(try await due(at: 1_061) == ["a", "b"])  // its lease ran out
        _ = try await store.finishDelivery(
            responseID: "r-0", endpointID: "a", owner: "w", outcome: .delivered, breaker: Self.breaker, at: Self.at(1_002))
        #expect(try await due(at: 1_100) == ["b"])  // delivered
    }

    /// How far the outbox is behind: the earliest due time of the work waiting, a response before
    /// it is handed to endpoints and each delivery after; not a delivery of a paused endpoint.
    @Test(arguments: Driver.available)
    func theOldestDueWorkSaysHowFarTheOutboxIsBehind(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.oldestDue(now: Self.at(5_000)) == nil)
        _ = try await store.accept(StoreConformanceTests.action("n-early", id: "r-early", at: 900))
        #expect(try await store.oldestDue(now: Self.at(899)) == nil, "not due yet")
        #expect(try await store.oldestDue(now: Self.at(1_005)) == Self.at(900))
        for id in ["a", "b"] { _ = try await store.createEndpoint(Self.endpoint(id)) }
        let claimed = try await store.claimDue(now: Self.at(1_000), limit: 10, lease: 60, owner: "router")
        try await store.fanOut(claimed.map { FanOut(responseID: $0.id, endpointIDs: ["a", "b"]) }, owner: "router", at: Self.at(1_000))
        #expect(try await store.oldestDue(now: Self.at(1_005)) != nil, "its deliveries wait")
        _ = try await store.updateEndpoint(id: "b", EndpointChange(paused: true), at: Self.at(1_001))
        _ = try await store.claimDeliveries(endpointID: "a", now: Self.at(1_002), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        _ = try await store.finishDelivery(
            responseID: "r-early", endpointID: "a", owner: "w", outcome: .delivered, breaker: Self.breaker, at: Self.at(1_003))
        #expect(try await store.oldestDue(now: Self.at(1_005)) == nil, "b's delivery waits on purpose: b is paused")
        _ = try await store.updateEndpoint(id: "b", EndpointChange(paused: false), at: Self.at(1_004))
        let due = try #require(try await store.oldestDue(now: Self.at(1_005)))
        #expect(due <= Self.at(1_005), "b's delivery is due again")
    }

    @Test(arguments: Driver.available)
    func eachEndpointGetsItsOwnDeliveryAndTheResponseSummarizesThem(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["a", "b"] { _ = try await store.createEndpoint(Self.endpoint(id)) }
        let ids = try await Self.fanned(store, count: 1, to: ["a", "b"])
        // Fanned out: the router does not claim it again.
        #expect(try await store.claimDue(now: Self.at(2_000), limit: 10, lease: 60, owner: "router").isEmpty)
        let a = try await store.claimDeliveries(endpointID: "a", now: Self.at(1_001), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        let b = try await store.claimDeliveries(endpointID: "b", now: Self.at(1_001), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(a.map(\.action.id) == ids && b.map(\.action.id) == ids)
        #expect(a.first?.webhookID == "r-0" && b.first?.webhookID == "r-0")  // one message id for every endpoint
        #expect(a.first?.action.attempts == 1)
        #expect(a.first?.action.response == StoreConformanceTests.action("n-0").response)
        // Leased: nothing more for anyone.
        #expect(
            try await store.claimDeliveries(endpointID: "a", now: Self.at(1_002), limit: 10, lease: 60, owner: "x", breaker: Self.breaker).isEmpty)

        #expect(
            try await store.finishDelivery(
                responseID: "r-0", endpointID: "a", owner: "x", outcome: .delivered, breaker: Self.breaker, at: Self.at(1_003)) == nil)
        #expect(
            try await store.finishDelivery(
                responseID: "r-0", endpointID: "a", owner: "w", outcome: .delivered, breaker: Self.breaker, at: Self.at(1_003)) == .delivered)
        #expect(try await store.response(id: "r-0")?.status == .pending)  // b is still on its way
        #expect(
            try await store.finishDelivery(
                responseID: "r-0", endpointID: "b", owner: "w", outcome: .rejected("HTTP 404"), breaker: Self.breaker, at: Self.at(1_004))
                == .dead("HTTP 404"))
        let dead = try #require(try await store.response(id: "r-0"))
        #expect(dead.status == .dead && dead.lastError == "b: HTTP 404")
        #expect(try await store.endpointDeliveries(responseID: "r-0").map(\.status) == [.delivered, .dead])

        // Retried: only the dead delivery goes again; the response is pending until it is done.
        #expect(try await store.requeue(id: "r-0", at: Self.at(1_100)) == .queued)
        #expect(try await store.endpointDeliveries(responseID: "r-0").map(\.status) == [.delivered, .pending])
        #expect(
            try await store.claimDeliveries(endpointID: "a", now: Self.at(1_100), limit: 10, lease: 60, owner: "w", breaker: Self.breaker).isEmpty)
        let again = try await store.claimDeliveries(endpointID: "b", now: Self.at(1_100), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(again.map(\.action.id) == ["r-0"])
        _ = try await store.finishDelivery(
            responseID: "r-0", endpointID: "b", owner: "w", outcome: .delivered, breaker: Self.breaker, at: Self.at(1_101))
        #expect(try await store.response(id: "r-0")?.status == .delivered)
        #expect(try await store.responseCounts()[.delivered] == 1)
        // A delivered response queued again is replayed to every endpoint.
        #expect(try await store.requeue(matching: ResponseFilter(status: .delivered), at: Self.at(1_200)) == 1)
        #expect(try await store.endpointDeliveries(responseID: "r-0").map(\.status) == [.pending, .pending])
    }

    @Test(arguments: Driver.available)
    func anOpenBreakerHoldsDeliveriesWithoutSpendingAttemptsAndProbesOnce(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("down"))
        _ = try await Self.fanned(store, count: 3, to: ["down"])
        let claimed = try await store.claimDeliveries(
            endpointID: "down", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(claimed.count == 3)
        // The first failure is retried as usual; the second opens the breaker and is held.
        #expect(
            try await store.finishDelivery(
                responseID: "r-0", endpointID: "down", owner: "w", outcome: .failed("refused", retryAt: Self.at(1_010)), breaker: Self.breaker,
                at: Self.at(1_001)) == .retry(Self.at(1_010)))
        #expect(
            try await store.finishDelivery(
                responseID: "r-1", endpointID: "down", owner: "w", outcome: .failed("refused", retryAt: nil), breaker: Self.breaker,
                at: Self.at(1_002)) == .held)  // held, not dead, though its window was spent
        #expect(
            try await store.finishDelivery(
                responseID: "r-2", endpointID: "down", owner: "w", outcome: .failed("refused", retryAt: Self.at(1_010)), breaker: Self.breaker,
                at: Self.at(1_003)) == .held)
        let open = try #require(try await store.endpoint(id: "down"))
        #expect(open.state == .open && open.failureStreak == 3 && open.openUntil == Self.at(1_063))
        let held = try await store.endpointDeliveries(responseID: "r-1")
        #expect(held.first?.attempts == 0 && held.first?.status == .pending)
        #expect(try await store.response(id: "r-1")?.status == .pending)

        // Nothing while open; one probe once its time is up, and not a second one meanwhile.
        #expect(
            try await store.claimDeliveries(endpointID: "down", now: Self.at(1_062), limit: 10, lease: 60, owner: "w", breaker: Self.breaker).isEmpty)
        let probe = try await store.claimDeliveries(endpointID: "down", now: Self.at(1_063), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(probe.count == 1)
        #expect(
            try await store.claimDeliveries(endpointID: "down", now: Self.at(1_064), limit: 10, lease: 60, owner: "v", breaker: Self.breaker).isEmpty)
        let probed = try #require(probe.first)
        #expect(
            try await store.finishDelivery(
                responseID: probed.action.id, endpointID: "down", owner: "w", outcome: .failed("refused", retryAt: Self.at(1_070)),
                breaker: Self.breaker, at: Self.at(1_064)) == .held)
        #expect(try await store.endpoint(id: "down")?.openUntil == Self.at(1_124))

        // The next probe succeeds: the breaker closes and every held delivery is due, with a fresh window.
        let next = try await store.claimDeliveries(endpointID: "down", now: Self.at(1_124), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(next.count == 1)
        _ = try await store.finishDelivery(
            responseID: try #require(next.first).action.id, endpointID: "down", owner: "w", outcome: .delivered, breaker: Self.breaker,
            at: Self.at(1_125))
        #expect(try await store.endpoint(id: "down")?.state == .active)
        let rest = try await store.claimDeliveries(endpointID: "down", now: Self.at(1_125), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(rest.count == 2)
        #expect(rest.allSatisfy { $0.action.queuedAt == Self.at(1_125) })
    }

    /// One batch of outcomes over two endpoints lands as the same outcomes recorded one by one:
    /// the failing endpoint's breaker moves with each failure in turn (retry, then held once open),
    /// the healthy one's deliveries are delivered or dead, each response sums up its two
    /// deliveries, and an outcome from an owner that holds no lease changes nothing.
    @Test(arguments: Driver.available)
    func aBatchOfOutcomesLandsAsTheSameOutcomesOneByOne(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("down"))
        _ = try await store.createEndpoint(Self.endpoint("up"))
        _ = try await Self.fanned(store, count: 3, to: ["down", "up"])
        for id in ["down", "up"] {
            let claimed = try await store.claimDeliveries(
                endpointID: id, now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
            #expect(claimed.count == 3)
        }
        func attempt(_ response: String, _ endpoint: String, _ outcome: DeliveryOutcome, _ time: TimeInterval) -> FinishedAttempt {
            FinishedAttempt(responseID: response, endpointID: endpoint, outcome: outcome, at: Self.at(time))
        }
        let fates = try await store.finishDeliveries(
            [
                attempt("r-2", "up", .rejected("HTTP 410"), 1_003),
                attempt("r-0", "down", .failed("refused", retryAt: Self.at(1_010)), 1_001),
                attempt("r-0", "up", .delivered, 1_001),
                attempt("r-1", "down", .failed("refused", retryAt: nil), 1_002),
                attempt("r-1", "up", .delivered, 1_002),
                attempt("r-2", "down", .failed("refused", retryAt: Self.at(1_010)), 1_003),
            ], owner: "w", breaker: Self.breaker)
        #expect(fates == [.dead("HTTP 410"), .retry(Self.at(1_010)), .delivered, .held, .delivered, .held])
        let down = try #require(try await store.endpoint(id: "down"))
        #expect(down.state == .open && down.failureStreak == 3 && down.openUntil == Self.at(1_063))
        let up = try #require(try await store.endpoint(id: "up"))
        #expect(up.state == .active && up.failureStreak == 0)
        let r1 = try await store.endpointDeliveries(responseID: "r-1")
        #expect(r1.map(\.status) == [.pending, .delivered])  // down held (its attempt given back), up delivered
        #expect(r1.first?.attempts == 0)
        #expect(try await store.response(id: "r-0")?.status == .pending)  // down's retry is still to come
        #expect(try await store.response(id: "r-2")?.status == .pending)  // dead at up, held at down
        // Recorded already, or never this owner's: nothing changes.
        #expect(try await store.finishDeliveries([attempt("r-0", "up", .rejected("late"), 1_004)], owner: "w", breaker: Self.breaker) == [nil])
        #expect(try await store.finishDeliveries([attempt("r-0", "down", .delivered, 1_004)], owner: "x", breaker: Self.breaker) == [nil])
        #expect(try await store.endpointDeliveries(responseID: "r-0").map(\.status) == [.pending, .delivered])
    }

    /// A claim reads the endpoint in its own transaction and gives it back with the deliveries;
    /// an endpoint the caller cannot take (an instance that cannot sign for it) is claimed
    /// nothing from: no lease, no attempt spent, no write.
    @Test(arguments: Driver.available)
    func aClaimReturnsTheEndpointItReadAndClaimsNothingFromOneItMayNotTake(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("s"))
        _ = try await Self.fanned(store, count: 2, to: ["s"])
        _ = try await store.updateEndpoint(id: "s", EndpointChange(secret: "whsec_two"), at: Self.at(900))
        let refused = try await store.claimDeliveries(
            endpointID: "s", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker, if: { _ in false })
        #expect(refused.endpoint?.secret == "whsec_two" && refused.deliveries.isEmpty)
        #expect(try await store.endpointDeliveries(responseID: "r-0").map(\.attempts) == [0])
        #expect(try await store.polledEndpoints(at: Self.at(1_000)).filter(\.hasDueDeliveries).map(\.endpoint.id) == ["s"])
        let seen = Mutex<[String]>([])
        let taken = try await store.claimDeliveries(
            endpointID: "s", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker,
            if: { endpoint in
                seen.withLock { $0.append(endpoint.secret ?? "") }
                return true
            })
        #expect(taken.endpoint?.secret == "whsec_two" && taken.endpoint?.previousSecret == "whsec_one")
        #expect(taken.deliveries.map(\.action.id) == ["r-0", "r-1"] && taken.deliveries.allSatisfy { $0.action.attempts == 1 })
        #expect(seen.withLock { $0 } == ["whsec_two"])
        let missing = try await store.claimDeliveries(
            endpointID: "gone", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker, if: { _ in true })
        #expect(missing.endpoint == nil && missing.deliveries.isEmpty)
    }

    /// A batch of successes on healthy endpoints (PostgreSQL writes it in one statement, with no
    /// read first) finishes only what the owner still holds, each delivery once: one whose lease
    /// another owner took over after it ran out is left to that owner, and the same delivery twice
    /// in a batch is delivered once.
    @Test(arguments: Driver.available)
    func aBatchOfSuccessesFinishesOnlyWhatItsOwnerStillHolds(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["a", "b"] { _ = try await store.createEndpoint(Self.endpoint(id)) }
        _ = try await Self.fanned(store, count: 3, to: ["a", "b"])
        for id in ["a", "b"] {
            #expect(
                try await store.claimDeliveries(endpointID: id, now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker).count
                    == 3)
        }
        // r-2's lease at b runs out and another owner takes it over.
        let taken = try await store.claimDeliveries(endpointID: "b", now: Self.at(1_061), limit: 10, lease: 60, owner: "x", breaker: Self.breaker)
        #expect(taken.map(\.action.id) == ["r-0", "r-1", "r-2"])
        _ = try await store.finishDeliveries(
            ["r-0", "r-1"].map { FinishedAttempt(responseID: $0, endpointID: "b", outcome: .delivered, at: Self.at(1_062)) }, owner: "x",
            breaker: Self.breaker)
        let batch = [("r-1", "a"), ("r-0", "a"), ("r-2", "b"), ("r-2", "a"), ("r-0", "a")].map {
            FinishedAttempt(responseID: $0.0, endpointID: $0.1, outcome: .delivered, at: Self.at(1_070))
        }
        let fates = try await store.finishDeliveries(batch, owner: "w", breaker: Self.breaker)
        #expect(fates == [.delivered, .delivered, nil, .delivered, nil])
        #expect(try await store.endpointDeliveries(responseID: "r-2").map(\.status) == [.delivered, .pending])
        let stillHeld = try await store.finishDeliveries(
            [FinishedAttempt(responseID: "r-2", endpointID: "b", outcome: .delivered, at: Self.at(1_071))], owner: "x", breaker: Self.breaker)
        #expect(stillHeld == [.delivered])
        let deliveredAt = try await store.endpointDeliveries(responseID: "r-1").map(\.deliveredAt)
        #expect(deliveredAt == [Self.at(1_070), Self.at(1_062)])
        #expect(try await store.response(id: "r-2")?.status == .delivered)
    }

    @Test(arguments: Driver.available)
    func aPausedEndpointKeepsItsDeliveriesUntilResumed(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("p"))
        _ = try await store.updateEndpoint(id: "p", EndpointChange(paused: true), at: Self.at(2))
        _ = try await Self.fanned(store, count: 2, to: ["p"])
        #expect(
            try await store.claimDeliveries(endpointID: "p", now: Self.at(90_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker).isEmpty)
        #expect(try await store.response(id: "r-0")?.status == .pending)
        _ = try await store.updateEndpoint(id: "p", EndpointChange(paused: false), at: Self.at(90_000))
        let resumed = try await store.claimDeliveries(endpointID: "p", now: Self.at(90_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(resumed.map(\.action.id) == ["r-0", "r-1"])
        #expect(resumed.allSatisfy { $0.action.queuedAt == Self.at(90_000) && $0.action.attempts == 1 })
    }

    @Test(arguments: Driver.available)
    func aRateLimitHandsOutSlotsAcrossClaims(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("slow", rate: 4))
        _ = try await Self.fanned(store, count: 10, to: ["slow"])
        // 4 a second, handed out one second ahead: 4 slots, 0.25 s apart.
        let first = try await store.claimDeliveries(endpointID: "slow", now: Self.at(1_000), limit: 32, lease: 60, owner: "a", breaker: Self.breaker)
        #expect(first.map(\.sendAt) == [1_000, 1_000.25, 1_000.5, 1_000.75].map(Self.at))
        // Another instance at the same moment gets none; half a second later, the next two.
        #expect(
            try await store.claimDeliveries(endpointID: "slow", now: Self.at(1_000), limit: 32, lease: 60, owner: "b", breaker: Self.breaker).isEmpty)
        let second = try await store.claimDeliveries(
            endpointID: "slow", now: Self.at(1_000.5), limit: 32, lease: 60, owner: "b", breaker: Self.breaker)
        #expect(second.map(\.sendAt) == [1_001, 1_001.25].map(Self.at))
        #expect(try await store.endpoint(id: "slow")?.nextSlotAt == Self.at(1_001.5))
    }

    @Test(arguments: Driver.available)
    func retentionTakesAResponsesDeliveriesWithItAndNeverAPendingOne(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["a", "b"] { _ = try await store.createEndpoint(Self.endpoint(id)) }
        _ = try await Self.fanned(store, count: 2, to: ["a", "b"])
        for endpoint in ["a", "b"] {
            let claimed = try await store.claimDeliveries(
                endpointID: endpoint, now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
            for delivery in claimed where delivery.action.id == "r-0" || endpoint == "a" {
                _ = try await store.finishDelivery(
                    responseID: delivery.action.id, endpointID: endpoint, owner: "w", outcome: .delivered, breaker: Self.breaker,
                    at: Self.at(1_001))
            }
        }
        // r-0 is delivered to both; r-1 waits for b.
        #expect(try await store.response(id: "r-0")?.status == .delivered)
        #expect(try await store.response(id: "r-1")?.status == .pending)
        let purged = try await store.purge(
            PurgeCutoff(responsesBefore: Self.at(5_000), badgeEntriesBefore: Self.at(0), now: Self.at(5_000)), limit: 100)
        #expect(purged.responses == 1)
        #expect(try await store.response(id: "r-0") == nil)
        #expect(try await store.endpointDeliveries(responseID: "r-0").isEmpty)
        #expect(try await store.endpointDeliveries(responseID: "r-1").map(\.status) == [.delivered, .pending])
    }

    /// A response no endpoint takes is held (its attempt given back, the reason kept), not
    /// claimed again, and let go, due at once, when an endpoint is created; one that an endpoint
    /// created meanwhile takes is given back instead of held.
    @Test(arguments: Driver.available)
    func aResponseNoEndpointTakesIsHeldUntilOneIsCreated(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.accept(StoreConformanceTests.action("n-1", id: "r-1", at: 1_000))
        _ = try await store.accept(StoreConformanceTests.action("n-2", "decline", id: "r-2", at: 1_000))
        let claimed = try await store.claimDue(now: Self.at(1_000), limit: 10, lease: 60, owner: "router")
        #expect(claimed.count == 2)
        let held = claimed.map {
            HeldResponse(
                responseID: $0.id, category: $0.response.category.rawValue, action: $0.response.action.rawValue, reason: "held: no endpoint")
        }
        // An endpoint that takes only declines was created after the claim: r-2 is given back.
        _ = try await store.createEndpoint(
            Endpoint(id: "declines", url: "https://d.example/hook", filter: ["invite.decline"], secret: "whsec_one", createdAt: Self.at(1_000)))
        try await store.hold(held, owner: "router")
        let r1 = try #require(try await store.response(id: "r-1"))
        #expect(r1.status == .held && r1.lastError == "held: no endpoint" && r1.attempts == 0)
        let r2 = try #require(try await store.response(id: "r-2"))
        #expect(r2.status == .pending && r2.attempts == 0)
        #expect(try await store.claimDue(now: Self.at(5_000), limit: 10, lease: 60, owner: "router").map(\.id) == ["r-2"])
        #expect(try await store.responseCounts()[.held] == 1)
        #expect(try await store.responses(matching: ResponseFilter(status: .held), after: nil, limit: 10).items.map(\.id) == ["r-1"])
        // Retention never deletes a held response.
        let cutoff = PurgeCutoff(responsesBefore: Self.at(1_000_000), badgeEntriesBefore: Self.at(0), now: Self.at(2_000_000))
        #expect(try await store.purge(cutoff, limit: 100).responses == 0)
        // A new endpoint lets it go, due at its creation.
        _ = try await store.createEndpoint(
            Endpoint(id: "all", url: "https://a.example/hook", filter: ["*"], secret: "whsec_one", createdAt: Self.at(6_000)))
        let released = try #require(try await store.response(id: "r-1"))
        #expect(released.status == .pending && released.lastError == nil && released.nextAttemptAt == Self.at(6_000))
        #expect(try await store.claimDue(now: Self.at(6_000), limit: 10, lease: 60, owner: "router").map(\.id).contains("r-1"))
    }

    /// An endpoint delivery whose lease ran out without an outcome is counted when claimed again;
    /// a re-queue starts the count again.
    @Test(arguments: Driver.available)
    func expiredLeasesOfADeliveryAreCounted(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.createEndpoint(Self.endpoint("a"))
        _ = try await Self.fanned(store, count: 1, to: ["a"])
        var time: TimeInterval = 1_000
        for expected in 0..<4 {
            let claimed = try await store.claimDeliveries(
                endpointID: "a", now: Self.at(time), limit: 10, lease: 60, owner: "w\(expected)", breaker: Self.breaker)
            #expect(claimed.map(\.action.expiredLeases) == [expected])
            time += 61  // the lease runs out, no outcome recorded
        }
        let claimed = try await store.claimDeliveries(endpointID: "a", now: Self.at(time), limit: 10, lease: 60, owner: "last", breaker: Self.breaker)
        let fate = try await store.finishDelivery(
            responseID: "r-0", endpointID: "a", owner: "last", outcome: .setAside(LeasePolicy.poisonReason(4)), breaker: Self.breaker,
            at: Self.at(time))
        #expect(claimed.count == 1)
        #expect(fate == .dead(LeasePolicy.poisonReason(4)))
        #expect(try await store.response(id: "r-0")?.status == .dead)
        #expect(try await store.endpoint(id: "a")?.failureStreak == 0)
        #expect(try await store.requeue(id: "r-0", at: Self.at(time + 1)) == .queued)
        let again = try await store.claimDeliveries(
            endpointID: "a", now: Self.at(time + 1), limit: 10, lease: 60, owner: "fresh", breaker: Self.breaker)
        #expect(again.map(\.action.expiredLeases) == [0])
    }

    /// With fan-out at accept on, a response's deliveries are written in the commit that accepts
    /// it (no claim by the delivery worker first): one per endpoint that takes it, due at once; an
    /// in-process handler keeps what it takes, and a response no endpoint takes is left for the
    /// delivery worker (which holds it).
    @Test(arguments: Driver.available)
    func deliveriesAreWrittenInTheAcceptsCommit(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let filters = [
            ("all", ["*"]), ("accepts", ["invite.accept"]), ("others", ["message.*"]), ("invites", ["invite.*"]),
            ("prefix", ["inv.*", "invite.acc", "invite.accept.*"]), ("declines", ["message.*", "invite.decline"]),
        ]
        for (id, filter) in filters {
            _ = try await store.createEndpoint(
                Endpoint(id: id, url: "https://\(id).example/", filter: filter, secret: "whsec_one", createdAt: Self.at(1)))
        }
        await store.fanOutAtAccept(AcceptFanOut(handledInProcess: { category, _ in category == "local" }))
        _ = try await store.accept(StoreConformanceTests.action("n-1", id: "r-accept", at: 1_000))
        _ = try await store.accept(StoreConformanceTests.action("n-2", "decline", id: "r-decline", at: 1_000))
        var local = StoreConformanceTests.action("n-3", id: "r-local", at: 1_000)
        local.response.category = "local"
        _ = try await store.accept(local)
        #expect(try await store.endpointDeliveries(responseID: "r-accept").map(\.endpointID) == ["accepts", "all", "invites"])
        #expect(try await store.endpointDeliveries(responseID: "r-decline").map(\.endpointID) == ["all", "declines", "invites"])
        #expect(try await store.endpointDeliveries(responseID: "r-local").isEmpty)
        // The delivery worker's claim finds only what no endpoint took.
        #expect(try await store.claimDue(now: Self.at(2_000), limit: 10, lease: 60, owner: "router").map(\.id) == ["r-local"])
        let claimed = try await store.claimDeliveries(
            endpointID: "all", now: Self.at(1_000), limit: 10, lease: 60, owner: "w", breaker: Self.breaker)
        #expect(Set(claimed.map(\.action.id)) == ["r-accept", "r-decline"])
        #expect(claimed.allSatisfy { $0.action.attempts == 1 && $0.action.expiredLeases == 0 })
        // The same answer again is a duplicate: no second delivery.
        #expect(try await store.accept(StoreConformanceTests.action("n-1", id: "r-again", at: 1_001)) != .accepted(id: "r-again"))
        #expect(try await store.endpointDeliveries(responseID: "r-again").isEmpty)
    }
}
