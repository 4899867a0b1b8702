public import ActionableCore
public import ActionableHTTP
public import ActionablePayload
public import ActionableStore
public import Foundation

extension PayloadBuilder {
    /// Checks a notification, records it in `ledger` as unread for `user`, and builds its payload
    /// with the user's badge (their unread notifications, this one included) in `aps.badge`: one
    /// call per send, for backends that embed the server.
    ///
    /// ```swift
    /// let payload = try await builder.build(
    ///     category: "invite", aps: APS(alert: .body("Dinner?")), custom: invite,
    ///     notificationID: id, user: "alice", actionToken: token, recordingIn: store)
    /// ```
    ///
    /// Nothing is recorded when the payload is refused. Building the same notification again
    /// does not count it twice: the badge is the user's current number.
    ///
    /// Without `actionToken`, a builder made with `ActionTokens` mints one bound to `user`,
    /// `notificationID` and the payload.
    ///
    /// It lives with the service, which links both the payload builder and storage; the payload
    /// library itself links no storage.
    ///
    /// - Parameters:
    ///   - category: the category the notification shows; it must be in the catalog.
    ///   - aps: the `aps` dictionary; its `badge` is replaced by the user's count.
    ///   - custom: the category's payload, checked against its declared keys.
    ///   - notificationID: the notification's id in the ledger (and the token's `jti`).
    ///   - user: whose badge counts the notification.
    ///   - actionToken: a token minted elsewhere; without it the builder mints one.
    ///   - pushType: the APNs push type the payload is built for.
    ///   - ledger: where the notification is recorded as unread.
    ///   - badgeLifetime: how long an unread notification counts: by default the
    ///     server's own default (`actionable serve --badge-lifetime`, 30 days).
    ///   - now: the time of the send.
    /// - Returns: the payload, with the user's badge.
    public func build<Custom: Encodable>(
        category: CategoryID, aps: APS = APS(), custom: Custom, notificationID: String, user: String,
        actionToken: String? = nil, pushType: PushType = .alert, recordingIn ledger: any BadgeLedger,
        badgeLifetime: TimeInterval = ServerSettings().badgeLifetime, now: Date = Date()
    ) async throws -> NotificationPayload {
        // Refused before anything is recorded; checked with a badge, as it will be sent (a
        // notification that shows only its badge is fine).
        var checked = aps
        checked.badge = aps.badge ?? 0
        _ = try build(category: category, aps: checked, custom: custom, actionToken: actionToken, pushType: pushType)
        let sent = SentNotification(notificationID: notificationID, user: user, category: category.rawValue, sentAt: now)
        let badge: Int
        switch try await ledger.recordSent(sent, countingSince: now.addingTimeInterval(-badgeLifetime)) {
        case .recorded(let count), .recordedBefore(let count): badge = count
        case .otherUser:
            throw PayloadError(
                .notificationOfAnotherUser,
                ["notification \(notificationID) is recorded for another user; give each notification its own id"])
        }
        var aps = aps
        aps.badge = badge
        if actionToken == nil, tokens != nil {
            return try await build(
                category: category, aps: aps, custom: custom, user: user, notificationID: notificationID, pushType: pushType, now: now)
        }
        return try build(category: category, aps: aps, custom: custom, actionToken: actionToken, pushType: pushType)
    }
}
