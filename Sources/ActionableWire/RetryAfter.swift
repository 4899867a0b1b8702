import Foundation

/// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP date. The app's client,
/// the server's forwarder and its APNs client all read it here.
///
/// The header is a peer's answer, so it is hostile input: whatever it says, the delay read is a
/// finite number of seconds in `0 ... longest`, and reading it never traps.
public enum RetryAfter {
    /// The longest delay a peer may ask for by default: one hour.
    public static let longest: TimeInterval = 3600

    /// How long `value` asks to wait from `now`, in seconds, held within `0 ... longest`:
    /// a delay or date too far away (`9223372036854775807`, twenty digits, the year 9999) is
    /// `longest`, a date already past (1970) is 0. `nil` when the value is neither delay-seconds
    /// (digits only: `-1`, `1e308`, `NaN`, `+5` and the empty string are not) nor an HTTP date:
    /// the caller then waits its own first delay.
    public static func delay(_ value: String, now: Date, longest: TimeInterval = RetryAfter.longest) -> TimeInterval? {
        let ceiling = longest.isFinite ? max(0, longest) : RetryAfter.longest
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More digits than an Int holds is still "very long": the longest delay.
            guard let seconds = Int(trimmed) else { return ceiling }
            return min(TimeInterval(seconds), ceiling)
        }
        // An IMF-fixdate is 29 bytes; a longer value is not one, and is not handed to the parser.
        guard trimmed.utf8.count <= 64, let date = httpDate(trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        return min(max(0, seconds), ceiling)
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the HTTP date senders must use.
    static func httpDate(_ text: String) -> Date? {
        lock.lock()
        defer { lock.unlock() }
        return formatter.date(from: text)
    }

    // One formatter, made once: making a DateFormatter costs more than parsing with it. The
    // lock keeps its use to one caller at a time on every platform.
    private static let lock = NSLock()
    nonisolated(unsafe) private static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()
}
