public import Foundation

/// A duration as the command line and the settings write it: a number and a unit, `90s`, `30m`,
/// `12h`, `7d`.
public enum DurationText {
    /// `text` in seconds; nil unless it is a positive number followed by s, m, h or d.
    public static func seconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number > 0, number.isFinite else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        default: return nil
        }
    }

    /// `seconds` in the largest unit that writes it whole, as people write durations (`30d`,
    /// `24h` rather than `1d`, `60s` rather than `1m`): what ``seconds(_:)`` reads back. `0` for
    /// zero or less.
    public static func text(_ seconds: TimeInterval) -> String {
        guard seconds > 0 else { return "0" }
        // Beyond what a whole count can hold (1e300d, read from hostile input): as a number.
        guard seconds < 1e15 else { return "\(seconds)s" }
        for (unit, size, least) in [("d", 86400.0, 2.0), ("h", 3600.0, 1.0), ("m", 60.0, 2.0)] {
            let count = seconds / size
            if count.rounded() == count && count >= least { return "\(Int(count))\(unit)" }
        }
        return seconds.rounded() == seconds ? "\(Int(seconds))s" : "\(seconds)s"
    }

    /// `duration` as ``text(_:)-(TimeInterval)`` writes it.
    public static func text(_ duration: Duration) -> String { text(duration.timeInterval) }
}
