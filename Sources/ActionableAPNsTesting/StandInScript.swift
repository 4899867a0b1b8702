public import Foundation

/// The scripted answers of a stand-in as the command line writes them.
public enum StandInScript {
    /// A script line that does not parse; the description names the form.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `TOKEN` or `TOKEN@TIME`: a device answered 410 `Unregistered`, with Apple's `timestamp`
    /// at TIME — Unix milliseconds, as Apple writes it, or ISO 8601 — or now when left out.
    public static func unregistered(_ text: String) throws(Invalid) -> (token: String, since: Date?) {
        let parts = text.split(separator: "@", maxSplits: 1).map(String.init)
        guard let token = parts.first, isDeviceToken(token) else {
            throw Invalid(description: "--unregistered \(text): give a hexadecimal device token, then @ and a time if you like")
        }
        guard parts.count == 2 else { return (token, nil) }
        if let milliseconds = Int64(parts[1]) { return (token, Date(timeIntervalSince1970: Double(milliseconds) / 1000)) }
        if let date = try? Date(parts[1], strategy: .iso8601) { return (token, date) }
        throw Invalid(description: "--unregistered \(text): the time after @ is Unix milliseconds or ISO 8601 (2026-11-24T08:00:00Z)")
    }

    /// `TOKEN=STATUS:REASON`: a device answered with that status and reason (`400:BadDeviceToken`).
    public static func failure(_ text: String) throws(Invalid) -> (token: String, status: Int, reason: String) {
        let form = "--fail \(text): write TOKEN=STATUS:REASON, as in 0a1b…=400:BadDeviceToken"
        let halves = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard halves.count == 2, isDeviceToken(halves[0]) else { throw Invalid(description: form) }
        let answer = halves[1].split(separator: ":", maxSplits: 1).map(String.init)
        guard answer.count == 2, let status = Int(answer[0]), (400...599).contains(status), !answer[1].isEmpty else {
            throw Invalid(description: form)
        }
        return (halves[0], status, answer[1])
    }

    /// Whether `text` is a device token as APNs takes one in its path: hexadecimal, not empty.
    public static func isDeviceToken(_ text: String) -> Bool { !text.isEmpty && text.allSatisfy(\.isHexDigit) }
}
