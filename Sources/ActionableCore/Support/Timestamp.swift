public import Foundation

/// Times as the HTTP API and the tools write and read them, with one pair of format styles
/// (value types: shared by every caller, no formatter made per call).
public enum Timestamp {
    private static let whole = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `date` in ISO 8601, UTC, whole seconds: `2026-11-23T08:00:00Z`.
    public static func iso8601(_ date: Date) -> String { whole.format(date) }

    /// Unix seconds (`1763884800`, `1763884800.5`) or an ISO 8601 time, with or without
    /// fractional seconds; `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        if let seconds = Double(text), seconds.isFinite { return Date(timeIntervalSince1970: seconds) }
        return (try? whole.parse(text)) ?? (try? fractional.parse(text))
    }
}
