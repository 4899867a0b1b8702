import ActionableStore
import Foundation
import Hummingbird
import Synchronization

/// `GET /metrics`: the Prometheus text of the server's registry. On the main listener it needs
/// the admin token (``AdminTokenAuthenticator``); on the separate `--metrics-address` listener
/// it is open to whoever reaches that address.
///
/// A scrape runs no query per hit: what only storage knows (the badge ledger's unread total, how
/// far the outbox is behind, the endpoints' breakers, whether storage answers at all) is read at
/// most once per ``ScrapeCache/maximumAge``, in the background, and a scrape shows the last
/// values read (only the very first scrape waits for them).
struct MetricsController: Sendable {
    let exposition: @Sendable () -> String
    let metrics: ServerMetrics?
    let readings: ScrapeCache<StorageReadings>

    init(exposition: @escaping @Sendable () -> String, metrics: ServerMetrics?, storage: StorageGate, settings: ServerSettings) {
        self.exposition = exposition
        self.metrics = metrics
        let lifetime = settings.badgeLifetime
        readings = ScrapeCache { await StorageReadings.read(from: storage, badgeLifetime: lifetime) }
    }

    /// Who may read the metrics.
    enum Access {
        /// Anyone who reaches the listener (the separate metrics listener).
        case open
        /// Callers with this admin token.
        case adminToken(String)
        /// Nobody (the main listener without an admin token: use `--metrics-address`).
        case closed
    }

    /// The route, with `access`.
    func routes(access: Access) -> RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        switch access {
        case .open:
            routes.get("/metrics") { _, _ in await self.response() }
        case .adminToken(let token):
            routes.group().add(middleware: AdminTokenAuthenticator(adminToken: token)).get("/metrics") { _, _ in await self.response() }
        case .closed:
            routes.get("/metrics") { _, _ -> Response in
                throw Problem(
                    .adminToken,
                    "/metrics needs the admin token; this server has none: start it with --admin-token, or serve the metrics "
                        + "on their own listener with --metrics-address 127.0.0.1:9090")
            }
        }
        return routes
    }

    func response() async -> Response {
        if let metrics, let readings = await readings.value() { metrics.record(readings) }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
    }
}

/// What a scrape shows of storage: whether it answered, and what it said.
struct StorageReadings: Sendable {
    /// Whether the last read reached storage (`actionable_storage_up`).
    var reachable: Bool
    /// Every user's unread notifications that still count.
    var unread: Int?
    /// How long the work that has waited longest since it fell due has waited; 0 when nothing is due.
    var oldestDueAge: TimeInterval?
    /// Endpoints whose breaker is open, and endpoints paused.
    var breakersOpen: Int?
    var paused: Int?

    /// Reads them all; a storage that is not open or does not answer is `reachable: false`.
    static func read(from storage: StorageGate, badgeLifetime: TimeInterval) async -> StorageReadings {
        do {
            let store = try storage.store()
            let now = Date()
            let unread = try await store.unreadTotal(countingSince: now.addingTimeInterval(-badgeLifetime))
            let due = try await store.oldestDue(now: now)
            let endpoints = try await store.endpoints()
            return StorageReadings(
                reachable: true, unread: unread, oldestDueAge: due.map { max(0, now.timeIntervalSince($0)) } ?? 0,
                breakersOpen: endpoints.count { $0.state == .open }, paused: endpoints.count { $0.state == .paused })
        } catch {
            return StorageReadings(reachable: false)
        }
    }
}

/// The unread total alone, as the first of these caches held it.
typealias UnreadTotalCache = ScrapeCache<Int>

/// A value read from storage, refreshed in the background once it is older than
/// ``maximumAge``: a scrape (or many) costs at most one read per interval.
final class ScrapeCache<Value: Sendable>: Sendable {
    /// How old the value may get before a scrape starts a new read.
    let maximumAge: Duration
    private let read: @Sendable () async throws -> Value
    private let state = Mutex<State>(State())

    private struct State {
        var value: Value?
        var readAt: ContinuousClock.Instant?
        var reading = false
    }

    init(maximumAge: Duration = .seconds(15), read: @escaping @Sendable () async throws -> Value) {
        self.maximumAge = maximumAge
        self.read = read
    }

    /// The last value read; the first call waits for the first read, later ones start a
    /// background read when the value is stale and return at once.
    func value() async -> Value? {
        let now = ContinuousClock.now
        let (current, start, first) = state.withLock { state -> (Value?, Bool, Bool) in
            let stale = state.readAt.map { now - $0 >= maximumAge } ?? true
            let start = stale && !state.reading
            if start { state.reading = true }
            return (state.value, start, state.readAt == nil)
        }
        guard start else { return current }
        if first { return await refresh() }
        Task { await self.refresh() }
        return current
    }

    @discardableResult private func refresh() async -> Value? {
        let result = try? await read()
        return state.withLock { state in
            state.reading = false
            state.readAt = ContinuousClock.now
            if let result { state.value = result }
            return state.value
        }
    }
}
