public import Foundation

/// A notification the backend sent, to count on its user's badge until it is answered, opened,
/// dismissed or read.
public struct SentNotification: Hashable, Sendable {
    /// The notification id (the action token's `jti`).
    public var notificationID: String
    /// The user it was sent to.
    public var user: String
    /// Its category.
    public var category: String
    /// When it was sent.
    public var sentAt: Date

    public init(notificationID: String, user: String, category: String, sentAt: Date = Date()) {
        self.notificationID = notificationID
        self.user = user
        self.category = category
        self.sentAt = sentAt
    }
}

/// What recording a sent notification did.
public enum BadgeRecordResult: Hashable, Sendable {
    /// Recorded as unread now; the user's badge after it.
    case recorded(badge: Int)
    /// Recorded before (or answered before it was recorded): not counted again; the user's badge.
    case recordedBefore(badge: Int)
    /// The id is recorded for another user: nothing changed.
    case otherUser
}

/// Each user's unread notifications, from which the badge number is counted. Every store keeps
/// one (the same conformance suite runs on every driver):
///
/// - recording a notification is idempotent on its id;
/// - reading happens once however often it is repeated, and an accepted action response marks
///   its notification read in the same transaction that stores it;
/// - the count is derived from the entries, never kept as a number that could drift or go
///   negative;
/// - entries sent before `countingSince` no longer count.
public protocol BadgeLedger: Sendable {
    /// Records `notification` as unread unless its id is known; answers the user's badge.
    func recordSent(_ notification: SentNotification, countingSince: Date) async throws -> BadgeRecordResult

    /// Marks `notificationIDs` of `user` read (ids of other users, or unknown ones, are left
    /// alone); answers the user's badge after.
    func markRead(user: String, notificationIDs: [String], at: Date, countingSince: Date) async throws -> Int

    /// Marks every unread notification of `user` read; answers 0.
    func markAllRead(user: String, at: Date, countingSince: Date) async throws -> Int

    /// The user's badge: their unread notifications sent since `countingSince`.
    func badge(user: String, countingSince: Date) async throws -> Int

    /// Every user's unread notifications sent since `countingSince` (for the metric).
    func unreadTotal(countingSince: Date) async throws -> Int
}
