public import ActionableWire
public import Foundation

/// A notification the server sends to each of its user's devices: what it carries and how.
public struct NewNotification: Hashable, Sendable {
    /// The notification id (the action token's `jti`).
    public var notificationID: String
    /// The user it goes to.
    public var user: String
    /// Its category.
    public var category: String
    /// Its custom payload as compact JSON: what a tap on it forwards.
    public var payloadJSON: String
    /// The bytes sent to APNs (the whole payload, `aps` and the action token included).
    public var apnsPayload: String
    /// What is sent to FCM for an Android device (`{"message": {"data", "android"}}` without the
    /// token, the same action token in its data); `nil` when it was recorded without one.
    public var fcmMessage: String?
    /// `alert` or `background`.
    public var pushType: String
    /// `apns-collapse-id`, when given.
    public var collapseID: String?
    /// Until when APNs keeps trying, when given.
    public var expiration: Date?
    /// `apns-priority`, when given.
    public var priority: Int?
    /// When the server took it.
    public var createdAt: Date
    /// The trace context of the request that recorded it (``TraceParent``), which its sends to
    /// APNs continue; `nil` when tracing is off.
    public var traceParent: String?

    /// A notification to send.
    public init(
        notificationID: String, user: String, category: String, payloadJSON: String, apnsPayload: String, pushType: String = "alert",
        collapseID: String? = nil, expiration: Date? = nil, priority: Int? = nil, createdAt: Date = Date(), traceParent: String? = nil,
        fcmMessage: String? = nil
    ) {
        self.traceParent = traceParent
        self.fcmMessage = fcmMessage
        self.notificationID = notificationID
        self.user = user
        self.category = category
        self.payloadJSON = payloadJSON
        self.apnsPayload = apnsPayload
        self.pushType = pushType
        self.collapseID = collapseID
        self.expiration = expiration
        self.priority = priority
        self.createdAt = createdAt
    }
}

/// Where one device's copy of a notification stands.
public enum SendState: String, Hashable, Sendable, CaseIterable, Codable {
    /// Waiting for its (next) attempt.
    case pending
    /// APNs took it.
    case sent
    /// APNs refused it for good.
    case failed
    /// APNs said the device no longer takes notifications.
    case unregistered
}

/// One device's copy of a notification.
public struct DeviceSend: Hashable, Sendable {
    /// The device token.
    public var token: String
    /// Which push service it goes through.
    public var platform: DevicePlatform
    /// Its APNs environment (iOS only).
    public var environment: APNsEnvironment
    /// Where it stands.
    public var state: SendState
    /// APNs' last HTTP status, once there was an answer.
    public var status: Int?
    /// APNs' last reason, or why the last attempt failed.
    public var reason: String?
    /// Attempts started.
    public var attempts: Int

    /// A device's copy.
    public init(
        token: String, platform: DevicePlatform = .ios, environment: APNsEnvironment, state: SendState, status: Int?, reason: String?,
        attempts: Int
    ) {
        self.token = token
        self.platform = platform
        self.environment = environment
        self.state = state
        self.status = status
        self.reason = reason
        self.attempts = attempts
    }
}

/// A notification the server took, with each device's copy.
public struct StoredNotification: Hashable, Sendable {
    /// What was taken.
    public var notification: NewNotification
    /// Each device's copy, by token.
    public var sends: [DeviceSend]

    /// A stored notification.
    public init(notification: NewNotification, sends: [DeviceSend]) {
        self.notification = notification
        self.sends = sends
    }
}

/// What recording a notification to send did. A notification id is sent once.
public enum NotificationRecordResult: Hashable, Sendable {
    /// Recorded now, with a copy for each of `devices` devices.
    case recorded(devices: Int)
    /// The id was recorded before for this user: nothing is sent again.
    case recordedBefore(devices: Int)
    /// The id is recorded for another user: nothing changed.
    case otherUser
}

/// A device's copy claimed for an attempt.
/// How one attempt at a copy ended, to record (``SendQueue/finishSends(_:owner:)``).
public struct FinishedSend: Hashable, Sendable {
    public var notificationID: String
    public var token: String
    public var outcome: SendOutcome
    /// When the attempt ended.
    public var at: Date

    public init(notificationID: String, token: String, outcome: SendOutcome, at: Date) {
        self.notificationID = notificationID
        self.token = token
        self.outcome = outcome
        self.at = at
    }
}

public struct ClaimedSend: Hashable, Sendable {
    /// The notification.
    public var notification: NewNotification
    /// The device token.
    public var token: String
    /// Which push service it goes through.
    public var platform: DevicePlatform
    /// Its environment (iOS only).
    public var environment: APNsEnvironment
    /// Attempts started, this one included.
    public var attempts: Int
    /// Leases of this copy that ran out without an outcome (``LeasePolicy``).
    public var expiredLeases: Int

    /// A claimed copy.
    public init(
        notification: NewNotification, token: String, platform: DevicePlatform = .ios, environment: APNsEnvironment, attempts: Int,
        expiredLeases: Int = 0
    ) {
        self.platform = platform
        self.expiredLeases = expiredLeases
        self.notification = notification
        self.token = token
        self.environment = environment
        self.attempts = attempts
    }
}

/// How an attempt ended.
public enum SendOutcome: Hashable, Sendable {
    /// APNs took it (its status).
    case sent(status: Int)
    /// APNs refused it for good.
    case failed(status: Int, reason: String)
    /// APNs said the device no longer takes notifications.
    case unregistered(status: Int, reason: String)
    /// Try again at `at`.
    case retry(at: Date, status: Int?, reason: String)
}

/// The notifications the server sends and each device's copy, durably: a copy is recorded with
/// its notification in one transaction, claimed under a lease (so one instance sends it at a
/// time, and another takes it over after a crash), and finished once.
public protocol SendQueue: Sendable {
    /// Records `notification` with a pending copy for each of `devices`, unless its id is known.
    func recordNotification(_ notification: NewNotification, devices: [Device]) async throws -> NotificationRecordResult

    /// Claims up to `limit` pending copies to devices of `platform` due at `now` for `lease`
    /// seconds, for `owner`: each platform's transport claims its own.
    func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String, platform: DevicePlatform) async throws -> [ClaimedSend]

    /// Records how `owner`'s attempt at `token`'s copy of `notificationID` ended (a copy not
    /// leased by `owner` any more is left alone). A sent copy dates its device's last send.
    func finishSend(notificationID: String, token: String, owner: String, outcome: SendOutcome, at: Date) async throws

    /// Records how `owner`'s attempts ended, as ``finishSend(notificationID:token:owner:outcome:at:)``
    /// does each, in one transaction: the outbox records a batch of sends with one write.
    func finishSends(_ finished: [FinishedSend], owner: String) async throws

    /// A notification and its copies.
    func notification(id: String) async throws -> StoredNotification?

    /// The provider token every instance sends with for APNs key `keyID`: the stored one when it
    /// was issued after `reuseIfIssuedAfter`, otherwise `candidate` (issued at `issuedAt`), which
    /// replaces it. Atomic, so instances starting together, and a restarted one, agree on one
    /// token instead of each making its own (which APNs answers `TooManyProviderTokenUpdates`).
    func shareProviderToken(keyID: String, candidate: String, issuedAt: Date, reuseIfIssuedAfter: Date) async throws -> SharedProviderToken
}

/// A provider token shared through storage, and when it was issued.
public struct SharedProviderToken: Hashable, Sendable {
    /// The JWT.
    public var token: String
    /// Its `iat`.
    public var issuedAt: Date

    /// A shared token.
    public init(token: String, issuedAt: Date) {
        self.token = token
        self.issuedAt = issuedAt
    }
}

extension SendQueue {
    /// Claims up to `limit` pending copies to iOS devices, as
    /// ``claimDueSends(now:limit:lease:owner:platform:)`` does.
    public func claimDueSends(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [ClaimedSend] {
        try await claimDueSends(now: now, limit: limit, lease: lease, owner: owner, platform: .ios)
    }
}
