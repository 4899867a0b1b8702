import ActionableDelivery
import ActionableStore
import CoreMetrics
import Prometheus

extension ActionableService {
    /// Makes, at zero, the counters whose every label this server can know before anything
    /// happens, so that a dashboard and alert rules find each series from the first scrape (a
    /// `rate()` over a series that appears only at its first increment misses that increment,
    /// and an alert on a series that does not exist yet never fires). Counters by endpoint appear
    /// with their endpoint's first attempt.
    static func exportCountersAtZero(_ factory: PrometheusMetricsFactory, sendsToAPNs: Bool, sendsToFCM: Bool) {
        func zero(_ label: String, _ dimensions: [(String, String)]) {
            _ = Counter(label: label, dimensions: dimensions, factory: factory)
        }
        for result in ["accepted", "duplicate", "rejected"] { zero("actionable_action_responses_total", [("result", result)]) }
        for result in ["reloaded", "unchanged", "refused"] { zero("actionable_catalog_reloads_total", [("result", result)]) }
        // An attempt's outcomes; `held` (an open breaker) only ever comes with an endpoint.
        let attemptOutcomes = AttemptOutcome.allCases.filter { $0 != .held }.map(\.rawValue)
        for outcome in attemptOutcomes { zero("actionable_handler_attempts_total", [("outcome", outcome)]) }
        var transports = ["handler", "webhook"]
        if sendsToAPNs { transports.append("apns") }
        if sendsToFCM { transports.append("fcm") }
        for transport in transports {
            for outcome in attemptOutcomes {
                zero("actionable_outbox_attempts_total", [("transport", transport), ("outcome", outcome)])
            }
        }
        // A copy's attempt ends in one of its final states, or is tried again.
        let copyOutcomes = ["retry"] + SendState.allCases.filter { $0 != .pending }.map(\.rawValue)
        if sendsToAPNs { for outcome in copyOutcomes { zero("actionable_apns_sends_total", [("outcome", outcome)]) } }
        if sendsToFCM { for outcome in copyOutcomes { zero("actionable_fcm_sends_total", [("outcome", outcome)]) } }
    }
}
