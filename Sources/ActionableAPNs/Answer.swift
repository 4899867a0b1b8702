import Foundation

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

    /// The answer of `status` with `body` (APNs' `{"reason": …, "timestamp": …}`) and `retryAfter`.
    public init(status: Int, body: [UInt8], retryAfter: TimeInterval? = nil) {
        struct Document: Decodable {
            var reason: String?
            var timestamp: Double?
        }
        let document = try? JSONDecoder().decode(Document.self, from: Data(body))
        let reason = document?.reason ?? "HTTP \(status)"
        switch (status, reason) {
        case (200, _): self = .sent
        case (410, _): self = .unregistered(since: document?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) })
        case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): self = .badDevice(reason: reason)
        case (403, "ExpiredProviderToken"): self = .expiredProviderToken
        case (_, "TooManyProviderTokenUpdates"): self = .failed(status: status, reason: reason)  // a bug: never retried
        case (429, _), (500, _), (503, _): self = .retry(reason: reason, retryAfter: retryAfter)
        default: self = .failed(status: status, reason: reason)
        }
    }
}
