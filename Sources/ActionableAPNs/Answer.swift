import ActionableWire
public import Foundation

/// What APNs answered a notification, and what the sender does about it.
public enum APNsAnswer: Sendable, Hashable {
    /// 200: APNs took it.
    case sent
    /// 410 `Unregistered` (or `ExpiredToken`): the device no longer takes notifications for the
    /// topic since `since` (Apple's `timestamp`); it stays registered only if it registered
    /// again after that.
    case unregistered(since: Date?)
    /// 400 `BadDeviceToken` or `DeviceTokenNotForTopic`: the token is not one of this topic
    /// and environment (a sandbox token sent to production, or the other way round).
    case badDevice(reason: String)
    /// 403 `ExpiredProviderToken`: make a new provider token once and send again.
    case expiredProviderToken
    /// 429 or 500/503: send again later (after `retryAfter` when APNs said).
    case retry(reason: String, retryAfter: TimeInterval?)
    /// Anything else: the notification is not sent, for `reason` (a `TooManyProviderTokenUpdates`
    /// among them, which is a bug of the sender).
    case failed(status: Int, reason: String)

    /// The answer of `status` with `body` (APNs' `{"reason": …, "timestamp": …}`) and `retryAfter`,
    /// read at `now`.
    ///
    /// The body is a peer's: a `timestamp` that is not a number, or not a finite one, is left
    /// out; one later than `now` (Apple cannot have seen the device go before it answered) is
    /// `now`, one before 1970 is 1970. A `retryAfter` that is not finite or is negative is left out.
    public init(status: Int, body: [UInt8], retryAfter: TimeInterval? = nil, now: Date = Date()) {
        let document = try? JSONDecoder().decode(APNsErrorDocument.self, from: Data(body))
        // The reason is logged and stored: APNs' text with its control characters escaped.
        let reason = document?.reason.map { PeerText.printable($0) } ?? "HTTP \(status)"
        let retryAfter = retryAfter.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        switch (status, reason) {
        case (200, _): self = .sent
        case (410, _): self = .unregistered(since: document?.timestamp.map { Self.date(milliseconds: $0, now: now) })
        case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): self = .badDevice(reason: reason)
        case (403, "ExpiredProviderToken"): self = .expiredProviderToken
        case (_, "TooManyProviderTokenUpdates"): self = .failed(status: status, reason: reason)  // a bug: never retried
        case (429, _), (500, _), (503, _): self = .retry(reason: reason, retryAfter: retryAfter)
        // Not APNs' own answers, but a proxy's on the way (or a stand-in's): tried again.
        case (408, _), (502, _), (504, _): self = .retry(reason: reason, retryAfter: retryAfter)
        default: self = .failed(status: status, reason: reason)
        }
    }

    /// Apple's `timestamp` (milliseconds since 1970), held within 1970 … `now`.
    static func date(milliseconds: Double, now: Date) -> Date {
        let seconds = min(max(0, milliseconds / 1000), now.timeIntervalSince1970)
        return Date(timeIntervalSince1970: seconds)
    }
}

/// APNs' error body, read leniently: a field of the wrong type is left out, never a failure of
/// the whole document (so the reason survives an odd timestamp).
struct APNsErrorDocument: Decodable {
    var reason: String?
    var timestamp: Double?

    enum CodingKeys: String, CodingKey { case reason, timestamp }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reason = try? container.decodeIfPresent(String.self, forKey: .reason)
        if let number = try? container.decodeIfPresent(Double.self, forKey: .timestamp), number.isFinite {
            timestamp = number
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .timestamp), let number = Double(text), number.isFinite {
            timestamp = number
        }
    }
}
