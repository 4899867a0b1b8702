import Foundation

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
}
