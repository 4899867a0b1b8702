import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTestSupport
import ActionableTesting
import ActionableTokens
import ActionableWire
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

struct OverloadTests {
    /// A store whose first accept waits at a gate until the test opens it.
    actor GatedStore: ActionStore {
        let inner = InMemoryActionStore()
        var arrived: CheckedContinuation<Void, Never>?
        var gate: CheckedContinuation<Void, Never>?
        var gated = true
        var didArrive = false

        func waitForArrival() async throws {
            try await within("the request at the gate") { await self.park() }
        }
        private func park() async {
            guard !didArrive else { return }  // the request may reach the gate first
            await withCheckedContinuation { arrived = $0 }
        }
        func open() {
            gate?.resume()
            gate = nil
        }

        func accept(_ action: NewResponse) async throws -> AcceptResult {
            if gated {
                gated = false
                await withCheckedContinuation { continuation in
                    gate = continuation
                    didArrive = true
                    arrived?.resume()
                    arrived = nil
                }
            }
            return try await inner.accept(action)
        }
        func response(id: String) async throws -> AcceptedResponse? { await inner.response(id: id) }
        func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [AcceptedResponse] {
            await inner.claimDue(now: now, limit: limit, lease: lease, owner: owner)
        }
        func markDelivered(id: String, owner: String, at: Date) async throws { await inner.markDelivered(id: id, owner: owner, at: at) }
        func reschedule(id: String, owner: String, at: Date, error: String) async throws {
            await inner.reschedule(id: id, owner: owner, at: at, error: error)
        }
        func markDead(id: String, owner: String, reason: String) async throws { await inner.markDead(id: id, owner: owner, reason: reason) }
        func pendingCount() async throws -> Int { await inner.pendingCount() }
        func oldestDue(now: Date) async throws -> Date? { await inner.oldestDue(now: now) }
        func recordActivity(_ counts: [ActivityCount], forgetBefore: ActivityMinute?) async throws {
            await inner.recordActivity(counts, forgetBefore: forgetBefore)
        }
        func activity(_ series: [ActivitySeries], from: ActivityMinute, to: ActivityMinute, byMinute: Bool) async throws -> [ActivityCount] {
            await inner.activity(series, from: from, to: to, byMinute: byMinute)
        }
        func endpoints() async throws -> [Endpoint] { await inner.endpoints() }
        func endpoint(id: String) async throws -> Endpoint? { await inner.endpoint(id: id) }
        func createEndpoint(_ endpoint: Endpoint) async throws -> Bool { await inner.createEndpoint(endpoint) }
        func updateEndpoint(id: String, _ change: EndpointChange, at: Date) async throws -> Endpoint? {
            await inner.updateEndpoint(id: id, change, at: at)
        }
        func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws { await inner.fanOut(routes, owner: owner, at: at) }
        func hold(_ responses: [HeldResponse], owner: String) async throws { await inner.hold(responses, owner: owner) }
        func fanOutAtAccept(_ fanOut: AcceptFanOut) async { await inner.fanOutAtAccept(fanOut) }
        func resumeIfPausedByMissingFlag(id: String, at: Date) async throws -> Bool {
            await inner.resumeIfPausedByMissingFlag(id: id, at: at)
        }
        func recordSignOut(session: String, until: Date, now: Date) async throws {
            await inner.recordSignOut(session: session, until: until, now: now)
        }
        func isSignedOut(session: String) async throws -> Bool { await inner.isSignedOut(session: session) }
        func claimDeliveries(
            endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
            if claimable: @escaping @Sendable (Endpoint) -> Bool
        ) async throws -> EndpointClaim {
            await inner.claimDeliveries(endpointID: endpointID, now: now, limit: limit, lease: lease, owner: owner, breaker: breaker, if: claimable)
        }
        func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?] {
            await inner.finishDeliveries(attempts, owner: owner, breaker: breaker)
        }
        func endpointDeliveries(responseID: String) async throws -> [EndpointDelivery] { await inner.endpointDeliveries(responseID: responseID) }
        func register(
            token: String, user: String, platform: DevicePlatform, environment: APNsEnvironment, at: Date, limits: DeviceLimits
        ) async throws -> DeviceRegistration {
            await inner.register(token: token, user: user, platform: platform, environment: environment, at: at, limits: limits)
        }
        func removeDevice(token: String, user: String?) async throws -> Bool { await inner.removeDevice(token: token, user: user) }
        func devices(of user: String) async throws -> [Device] { await inner.devices(of: user) }
        func markUnregistered(token: String, since: Date?, at: Date) async throws -> Bool {
            await inner.markUnregistered(token: token, since: since, at: at)
        }
        func recordNotification(_ notification: NewNotification, devices: [Device]) async throws -> NotificationRecordResult {
            await inner.recordNotification(notification, devices: devices)
        }
        func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform) async throws -> [ClaimedSend] {
            await inner.claimDueSends(now: now, limit: limit, lease: lease, owner: owner, platform: platform)
        }
        func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) async throws {
            await inner.finishSend(notificationID: notificationID, token: token, owner: owner, outcome: outcome, at: at)
        }
        func finishSends(_ finished: [FinishedSend], owner: String) async throws { await inner.finishSends(finished, owner: owner) }
        func notification(id: String) async throws -> StoredNotification? { await inner.notification(id: id) }
        func shareProviderToken(
            keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date
        ) async throws
            -> SharedProviderToken
        { await inner.shareProviderToken(keyID: keyID, candidate: candidate, issuedAt: issuedAt, reuseIfIssuedAfter: reuseIfIssuedAfter) }
        func checkReachable() async throws {}
        func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult {
            await inner.recordSent(notification, countingSince: countingSince)
        }
        func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int {
            await inner.markRead(user: user, notificationIDs: notificationIDs, at: at, countingSince: countingSince)
        }
        func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int {
            await inner.markAllRead(user: user, at: at, countingSince: countingSince)
        }
        func badge(user: String, countingSince: Date) async throws -> Int { await inner.badge(user: user, countingSince: countingSince) }
        func unreadTotal(countingSince: Date) async throws -> Int { await inner.unreadTotal(countingSince: countingSince) }
        func responses(matching filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int) async throws -> ActionableStore.ResponsePage {
            await inner.responses(matching: filter, after: cursor, limit: limit)
        }
        func requeue(id: String, at: Date) async throws -> RequeueResult { await inner.requeue(id: id, at: at) }
        func requeue(matching filter: ResponseFilter, at: Date) async throws -> Int { await inner.requeue(matching: filter, at: at) }
        func responseCounts() async throws -> [ResponseStatus: Int] { await inner.responseCounts() }
        func purge(_ cutoff: PurgeCutoff, limit: Int) async throws -> PurgeCount { await inner.purge(cutoff, limit: limit) }
    }

    @Test(.timeLimit(.minutes(1)))
    func pastTheLimitRequestsGet429AndNothingIsStored() async throws {
        let store = GatedStore()
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: store,
                tokens: tokens, settings: ServerSettings(maximumConcurrentAccepts: 1)))
        let first = ActionsEndpointTests.body(try await ActionsEndpointTests.token(notification: "n-first"))
        let second = ActionsEndpointTests.body(try await ActionsEndpointTests.token(notification: "n-second"))
        try await app.test(.router) { client in
            async let held = client.execute(
                uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json,
                body: ByteBuffer(string: first)
            ) { $0.status }
            try await store.waitForArrival()  // the first request holds the only place
            try await client.execute(
                uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json,
                body: ByteBuffer(string: second)
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "1")
            }
            await store.open()
            #expect(try await held == .accepted)
        }
        #expect(try await store.pendingCount() == 1)
    }
}
