import ActionableStore
import Tracing

/// The span of one delivery attempt: a child of the response's accept span (the trace context
/// stored with it, ``TraceParent``), so that a tap's accept, commit and every attempt, on
/// whichever instance and after any restart, are one trace. Its context is what the upstream
/// receives as `traceparent`.
enum AttemptSpan {
    /// The operation name.
    static let name = "actionable.delivery.attempt"

    /// Runs `body` inside the attempt span of `action` (to `endpointID`, or to an in-process
    /// handler when `nil`).
    static func run<T>(_ action: AcceptedResponse, endpointID: String?, _ body: (any Span) async throws -> T) async rethrows -> T {
        try await withSpan(name, context: TraceParent.context(action.traceParent), ofKind: endpointID == nil ? .internal : .client) { span in
            // With tracing off the span records nothing: its attributes are not even made (a
            // fiftieth of a delivered call's CPU, measured).
            guard span.isRecording else { return try await body(span) }
            span.attributes["actionable.response_id"] = action.id
            span.attributes["actionable.attempt"] = action.attempts
            span.attributes["actionable.category"] = action.response.category.rawValue
            span.attributes["actionable.action"] = action.response.action.rawValue
            if let endpointID { span.attributes["actionable.endpoint_id"] = endpointID }
            return try await body(span)
        }
    }

    /// Notes how the attempt went: its outcome, and an error status with the reason when it did
    /// not deliver.
    static func record(_ outcome: String, reason: String?, on span: any Span) {
        guard span.isRecording else { return }
        span.attributes["actionable.outcome"] = outcome
        if let reason { span.setStatus(SpanStatus(code: .error, message: reason)) }
    }
}
