public import Foundation

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

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the HTTP date senders must use, read
    /// byte by byte: exactly 29 ASCII bytes, a day name, a valid calendar date from year 0000 to
    /// 9999, a time (a leap second read as :59), `GMT`. Foundation's `DateFormatter` is not used:
    /// it stops the process on some non-ASCII input (found by the fuzz target
    /// `fuzz-upstream-answers`).
    static func httpDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func word(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard days.contains(word(0..<3)), bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32, bytes[11] == 32,
            bytes[16] == 32, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 32, word(26..<29) == "GMT",
            let day = number(5..<7), let monthIndex = months.firstIndex(of: word(8..<11)), let year = number(12..<16),
            let hour = number(17..<19), let minute = number(20..<22), let second = number(23..<25),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let month = monthIndex + 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[monthIndex] else { return nil }
        // Days from 1970-01-01 to the date (Howard Hinnant's days_from_civil), all in small numbers.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysSince1970 = era * 146_097 + dayOfEra - 719_468
        let seconds = daysSince1970 * 86_400 + hour * 3600 + minute * 60 + min(second, 59)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
