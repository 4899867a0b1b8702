/// A stored response as `GET /v1/actions/{id}` answers it (`StoredResponse` in `openapi.yaml`).
/// Times are Unix seconds with a fraction, as everywhere in the HTTP API.
public struct StoredResponse: Codable, Hashable, Sendable {
    /// The response id.
    public var id: String
    /// `pending`, `held`, `delivered` or `dead`.
    public var status: String
    /// Attempts started so far (for a response handed to endpoints, the most any of its
    /// deliveries made).
    public var attempts: Int
    /// When the next attempt is due, in Unix seconds.
    public var nextAttemptAt: Double
    /// Why the last attempt failed; `null` when none did (always present).
    @Nullable public var lastError: String?
    /// The category identifier.
    public var category: String
    /// The action identifier.
    public var action: String
    /// The notification answered.
    public var notificationId: String
    /// The user who answered.
    public var user: String
    /// When the server received it, in Unix seconds with a fraction.
    public var receivedAt: Double

    /// A stored response's answer.
    public init(
        id: String, status: String, attempts: Int, nextAttemptAt: Double, lastError: String?, category: String, action: String,
        notificationId: String, user: String, receivedAt: Double
    ) {
        self.id = id
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.category = category
        self.action = action
        self.notificationId = notificationId
        self.user = user
        self.receivedAt = receivedAt
    }

}

/// One response as `GET /v1/deliveries` lists it (`Delivery` in `openapi.yaml`, which keeps the
/// API's name), in the state of its deliveries.
public struct ListedResponse: Codable, Hashable, Sendable {
    /// The response id.
    public var id: String
    /// The category identifier.
    public var category: String
    /// The action identifier.
    public var action: String
    /// The notification answered.
    public var notificationId: String
    /// The user who answered.
    public var user: String
    /// `pending`, `held`, `delivered` or `dead`.
    public var state: String
    /// Attempts started so far (for a response handed to endpoints, the most any of its
    /// deliveries made).
    public var attempts: Int
    /// Why the last attempt failed; `null` when none did (always present).
    @Nullable public var lastError: String?
    /// When the server received it, in Unix seconds with a fraction.
    public var receivedAt: Double
    /// When the next attempt is due; `null` unless pending (always present).
    @Nullable public var nextAttemptAt: Double?

    /// A response's item.
    public init(
        id: String, category: String, action: String, notificationId: String, user: String, state: String, attempts: Int,
        lastError: String?, receivedAt: Double, nextAttemptAt: Double?
    ) {
        self.id = id
        self.category = category
        self.action = action
        self.notificationId = notificationId
        self.user = user
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.receivedAt = receivedAt
        self.nextAttemptAt = nextAttemptAt
    }

}

/// `GET /v1/deliveries` (`DeliveryPage` in `openapi.yaml`, which keeps the API's name): a page of
/// responses, newest first.
public struct ResponsePage: Codable, Hashable, Sendable {
    /// The responses of this page.
    public var items: [ListedResponse]
    /// Where the next page starts; left out on the last page.
    public var nextCursor: String?

    /// A page.
    public init(items: [ListedResponse], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// `POST /v1/deliveries/{id}/retry`: one response queued again (202).
public struct Requeued: Codable, Hashable, Sendable {
    /// The response id.
    public var id: String
    /// Always `pending`.
    public var state: String

    /// The answer for `id`.
    public init(id: String, state: String = "pending") {
        self.id = id
        self.state = state
    }
}

/// `POST /v1/deliveries/retry`: how many responses the filters queued again.
public struct RequeuedCount: Codable, Hashable, Sendable {
    /// How many were queued again.
    public var queued: Int

    /// The answer.
    public init(queued: Int) { self.queued = queued }
}

/// The badge endpoints' answer (`Badge` in `openapi.yaml`): the user's unread count.
public struct BadgeCount: Codable, Hashable, Sendable {
    /// The user's unread count.
    public var badge: Int

    /// The answer.
    public init(badge: Int) { self.badge = badge }
}

/// The name ``ResponsePage`` had before the glossary (a page of responses, not of deliveries);
/// kept for one release.
@available(*, deprecated, renamed: "ResponsePage")
public typealias DeliveryPage = ResponsePage

/// The name ``ListedResponse`` had before the glossary (one response, whatever its deliveries);
/// kept for one release.
@available(*, deprecated, renamed: "ListedResponse")
public typealias Delivery = ListedResponse
