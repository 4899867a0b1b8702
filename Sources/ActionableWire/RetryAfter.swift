import Foundation

/// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP date. The app's client
/// and the server's forwarder both read it here.
public enum RetryAfter {
    /// How long `value` asks to wait from `now`, in seconds (0 for a date already past); `nil`
    /// when the value is neither a non-negative integer nor an HTTP date.
    public static func delay(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let seconds = Int(trimmed) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        guard let date = httpDate(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
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
