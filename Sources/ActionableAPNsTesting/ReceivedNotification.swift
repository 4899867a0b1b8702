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

/// What the stand-in took, in the order it took it.
public actor ReceivedNotifications {
    private(set) var all: [ReceivedNotification] = []

    /// An empty log.
    public init() {}

    func append(_ notification: ReceivedNotification) { all.append(notification) }

    /// Every notification taken so far.
    public var notifications: [ReceivedNotification] { all }

    /// How many notifications with `apnsID` were taken (Apple keeps one; the stand-in counts
    /// every copy, so a test sees a resend).
    public func count(apnsID: String) -> Int { all.filter { $0.apnsID == apnsID }.count }
}
