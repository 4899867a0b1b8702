import ActionableStore
import Foundation
import Hummingbird
import Synchronization

/// `GET /metrics`: the Prometheus text of the server's registry. On the main listener it needs
/// the admin token (``AdminTokenAuthenticator``); on the separate `--metrics-address` listener
/// it is open to whoever reaches that address.
///
/// A scrape runs no query per hit: the badge ledger's unread total is read from storage at most
/// once per ``UnreadTotalCache/maximumAge``, in the background, and a scrape shows the last
/// value read (only the very first scrape waits for it).
struct MetricsController: Sendable {
    let exposition: @Sendable () -> String
    let metrics: ServerMetrics?
    let unread: UnreadTotalCache

    init(exposition: @escaping @Sendable () -> String, metrics: ServerMetrics?, storage: StorageGate, settings: ServerSettings) {
        self.exposition = exposition
        self.metrics = metrics
        let lifetime = settings.badgeLifetime
        unread = UnreadTotalCache { try await storage.store().unreadTotal(countingSince: Date().addingTimeInterval(-lifetime)) }
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
        if let metrics, let total = await unread.value() { metrics.badgeUnread(total) }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
    }
}

/// The badge ledger's unread total as last read, refreshed in the background once it is older
/// than ``maximumAge``: a scrape (or many) costs at most one `COUNT` per interval.
final class UnreadTotalCache: Sendable {
    /// How old the value may get before a scrape starts a new read.
    let maximumAge: Duration
    private let read: @Sendable () async throws -> Int
    private let state = Mutex<State>(State())

    private struct State {
        var value: Int?
        var readAt: ContinuousClock.Instant?
        var reading = false
    }

    init(maximumAge: Duration = .seconds(15), read: @escaping @Sendable () async throws -> Int) {
        self.maximumAge = maximumAge
        self.read = read
    }

    /// The last value read; the first call waits for the first read, later ones start a
    /// background read when the value is stale and return at once.
    func value() async -> Int? {
        let now = ContinuousClock.now
        let (current, start, first) = state.withLock { state -> (Int?, Bool, Bool) in
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

    @discardableResult private func refresh() async -> Int? {
        let result = try? await read()
        return state.withLock { state in
            state.reading = false
            state.readAt = ContinuousClock.now
            if let result { state.value = result }
            return state.value
        }
    }
}
