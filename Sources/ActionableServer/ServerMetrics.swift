import CoreMetrics
import Foundation
import Hummingbird

/// The server's metrics, made through an injected `MetricsFactory` (Prometheus in `serve`), so
/// tests read their own registry instead of the process-wide one.
public struct ServerMetrics: Sendable {
    let factory: any MetricsFactory

    /// Metrics made by `factory`.
    public init(factory: any MetricsFactory) { self.factory = factory }

    /// One HTTP request: by route template (not the raw path, whose ids would explode the
    /// series), method and status, and its duration.
    func request(path: String, method: String, status: Int, duration: Duration) {
        Counter(label: "actionable_http_requests_total",
            dimensions: [("path", path), ("method", method), ("status", String(status))], factory: factory).increment()
        Timer(label: "actionable_http_request_duration_seconds", dimensions: [("path", path)], factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// One action response: accepted, duplicate or rejected.
    func response(_ result: String) {
        Counter(label: "actionable_action_responses_total", dimensions: [("result", result)], factory: factory).increment()
    }
}

/// Counts and times every request.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = ActionableRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.request(path: context.endpointPath ?? "unmatched", method: request.method.rawValue,
                status: Int(response.status.code), duration: ContinuousClock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.request(path: context.endpointPath ?? "unmatched", method: request.method.rawValue,
                status: Int(status), duration: ContinuousClock.now - start)
            throw error
        }
    }
}
