import Foundation

/// A duration as the command line takes it: a number and a unit, `90s`, `30m`, `12h`, `7d`.
enum DurationArgument {
    /// `text` in seconds; nil unless it is a positive number followed by s, m, h or d.
    static func seconds(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let number = Double(text.dropLast()), number > 0, number.isFinite else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86400
        default: return nil
        }
    }
}
