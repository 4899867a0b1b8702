import ActionableCore
import ActionableStore
import Tracing

/// The span of one delivery attempt (to an endpoint or an in-process handler): a child of the
/// response's accept span (the trace context stored with it, ``TraceParent``), so that a tap's
/// accept, commit and every attempt, on whichever instance and after any restart, are one trace.
/// Its context is what the upstream receives as `traceparent`. The outbox's worker
/// (``OutboxLoop``) opens it and notes the outcome.
enum AttemptSpan {
    /// The operation name.
    static let name = "actionable.delivery.attempt"

    /// Sets what names an attempt at `action` (to `endpointID`, or to an in-process handler when
    /// `nil`) on its span.
    static func describe(_ action: AcceptedResponse, endpointID: String?, on span: any Span) {
        span.attributes["actionable.response_id"] = action.id
        span.attributes["actionable.attempt"] = action.attempts
        span.attributes["actionable.category"] = action.response.category.rawValue
        span.attributes["actionable.action"] = action.response.action.rawValue
        if let endpointID { span.attributes["actionable.endpoint_id"] = endpointID }
    }
}
