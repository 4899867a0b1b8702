import Foundation

/// A notification the stand-in took (answered 200), as `GET /sent` lists it.
public struct ReceivedNotification: Codable, Hashable, Sendable {
    /// The device token of the request's path.
    public var deviceToken: String
    /// `apns-id`.
    public var apnsID: String
    /// `apns-topic`.
    public var topic: String
    /// `apns-push-type`.
    public var pushType: String
    /// `apns-priority`.
    public var priority: Int
    /// `apns-collapse-id`, when there was one.
    public var collapseID: String?
    /// The payload, as sent.
    public var payload: String
}

/// What the stand-in took, in the order it took it. As APNs does, a copy of a notification
/// already taken (the same `apns-id`, resent after a lost answer) is answered 200 and not
/// delivered again; the copies are counted, so a test sees a resend.
public actor ReceivedNotifications {
    private var delivered: [ReceivedNotification] = []
    private var copies: [String: Int] = [:]
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// An empty log.
    public init() {}

    /// Takes `notification`; whether it is new (its `apns-id` not taken before).
    @discardableResult
    func append(_ notification: ReceivedNotification) -> Bool {
        copies[notification.apnsID, default: 0] += 1
        guard copies[notification.apnsID] == 1 else { return false }
        delivered.append(notification)
        waiters.removeAll { waiter in
            guard delivered.count >= waiter.count else { return false }
            waiter.continuation.resume()
            return true
        }
        return true
    }

    /// Returns once `count` notifications were delivered (each `apns-id` once).
    public func wait(untilDelivered count: Int) async {
        if delivered.count >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// Every notification delivered so far, once each.
    public var notifications: [ReceivedNotification] { delivered }

    /// How many requests carried `apnsID` (1 for a notification sent once).
    public func count(apnsID: String) -> Int { copies[apnsID] ?? 0 }

    private var seen = 0

    /// Counts one request to a device (whatever its answer); returns the count so far.
    func countRequest() -> Int {
        seen += 1
        return seen
    }

    /// How many requests were taken, copies included.
    public var requests: Int { copies.values.reduce(0, +) }
}
