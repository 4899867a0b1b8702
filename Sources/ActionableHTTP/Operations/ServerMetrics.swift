public import CoreMetrics
import Foundation
import Hummingbird
import Synchronization

/// The server's metrics, made through an injected `MetricsFactory` (Prometheus in `serve`), so
/// tests read their own registry instead of the process-wide one.
public final class ServerMetrics: Sendable {
    let factory: any MetricsFactory
    private let handles = Handles()

    /// Metrics made by `factory`.
    public init(factory: any MetricsFactory) { self.factory = factory }

    /// The metric objects made so far, by their dimensions: a request looks its own up instead
    /// of having the factory resolve (and lock, and label) a new one each time.
    private final class Handles: Sendable {
        struct RequestKey: Hashable, Sendable {
            var path: String
            var method: String
            var status: Int
        }
        let requests = Mutex([RequestKey: Counter]())
        let durations = Mutex([String: CoreMetrics.Timer]())
        let responses = Mutex([String: Counter]())
        let badgeRecords = Mutex([String: Counter]())
        let badgeReads = Mutex([String: Counter]())
    }

    /// One HTTP request: by route template (not the raw path, whose ids would explode the
    /// series), method and status, and its duration.
    func request(path: String, method: String, status: Int, duration: Duration) {
        let key = Handles.RequestKey(path: path, method: method, status: status)
        Self.handle(in: handles.requests, for: key) {
            Counter(
                label: "actionable_http_requests_total",
                dimensions: [("path", path), ("method", method), ("status", String(status))], factory: factory)
        }.increment()
        Self.handle(in: handles.durations, for: path) {
            CoreMetrics.Timer(label: "actionable_http_request_duration_seconds", dimensions: [("path", path)], factory: factory)
        }.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// One action response: accepted, duplicate or rejected.
    func response(_ result: String) {
        Self.handle(in: handles.responses, for: result) {
            Counter(label: "actionable_action_responses_total", dimensions: [("result", result)], factory: factory)
        }.increment()
    }

    /// One sent notification recorded in the badge ledger: `recorded` or `duplicate`.
    func badgeRecord(_ result: String) {
        Self.handle(in: handles.badgeRecords, for: result) {
            Counter(label: "actionable_badge_records_total", dimensions: [("result", result)], factory: factory)
        }.increment()
    }

    /// One read of the badge ledger, by who asked: `app`, `backend`, or `action` (an accepted
    /// action response).
    func badgeRead(_ source: String) {
        Self.handle(in: handles.badgeReads, for: source) {
            Counter(label: "actionable_badge_reads_total", dimensions: [("source", source)], factory: factory)
        }.increment()
    }

    /// What the last read of storage found: `actionable_storage_up` (1 or 0) always; the unread
    /// notifications of every user that still count (`actionable_badge_unread`), how long the
    /// oldest due work has waited (`actionable_outbox_oldest_due_seconds`), and the endpoints
    /// whose breaker is open or that are paused (`actionable_endpoints{state=open|paused}`) when
    /// it answered.
    func record(_ readings: StorageReadings) {
        Gauge(label: "actionable_storage_up", factory: factory).record(readings.reachable ? 1 : 0)
        if let total = readings.unread { Gauge(label: "actionable_badge_unread", factory: factory).record(total) }
        if let age = readings.oldestDueAge { Gauge(label: "actionable_outbox_oldest_due_seconds", factory: factory).record(age) }
        if let open = readings.breakersOpen {
            Gauge(label: "actionable_endpoints", dimensions: [("state", "open")], factory: factory).record(open)
        }
        if let paused = readings.paused {
            Gauge(label: "actionable_endpoints", dimensions: [("state", "paused")], factory: factory).record(paused)
        }
    }

    /// The handle kept under `key` in `cache`, made by `make` the first time.
    private static func handle<Key: Hashable & Sendable, Handle: Sendable>(
        in cache: borrowing Mutex<[Key: Handle]>, for key: Key,
        make: @Sendable () -> Handle
    ) -> Handle {
        cache.withLock { handles in
            if let handle = handles[key] { return handle }
            let handle = make()
            handles[key] = handle
            return handle
        }
    }
}

/// Counts and times every request.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ActionableRequestContext
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.request(
                path: context.endpointPath ?? "unmatched", method: request.method.rawValue,
                status: Int(response.status.code), duration: ContinuousClock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.request(
                path: context.endpointPath ?? "unmatched", method: request.method.rawValue,
                status: Int(status), duration: ContinuousClock.now - start)
            throw error
        }
    }
}
