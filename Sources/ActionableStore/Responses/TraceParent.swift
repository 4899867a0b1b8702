public import Tracing

/// The trace context kept with a stored record, as its W3C `traceparent` header value: what
/// links the spans of a tap's accept, commit and delivery attempts (or a notification's record
/// and its sends to APNs) into one trace, across instances and restarts.
///
/// It goes through the process's bootstrapped instrument (`InstrumentationSystem`): with
/// tracing off (the no-op instrument) there is nothing to keep, and a stored value is never read.
public enum TraceParent {
    /// The `traceparent` of the current task's trace context (the innermost span), or `nil`
    /// when tracing is off or no span is active.
    public static func current() -> String? { injected()["traceparent"] }

    /// The trace context a stored `traceparent` names: the parent of a span that continues the
    /// record's trace. A missing or malformed value gives a new trace.
    public static func context(_ traceParent: String?) -> InstrumentationContext {
        var context = InstrumentationContext.topLevel
        guard let traceParent else { return context }
        InstrumentationSystem.instrument.extract(["traceparent": traceParent], into: &context, using: DictionaryExtractor())
        return context
    }

    /// The headers that carry the current trace context on an outgoing request (`traceparent`,
    /// and `tracestate` when there is one); empty when tracing is off.
    public static func headers() -> [(String, String)] {
        injected().sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The current task's trace context as the bootstrapped instrument writes it, by header name.
    private static func injected() -> [String: String] {
        guard let context = InstrumentationContext.current else { return [:] }
        var headers: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &headers, using: DictionaryInjector())
        return headers
    }
}

/// Writes trace headers into a dictionary.
private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key.lowercased()] = value
    }
}

/// Reads trace headers from a dictionary.
private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key.lowercased()]
    }
}
