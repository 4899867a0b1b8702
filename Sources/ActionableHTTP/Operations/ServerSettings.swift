public import ActionableStore
public import Foundation

/// What the HTTP layer needs to know; the command line and configuration fill it.
public struct ServerSettings: Sendable {
    /// The largest `POST /v1/actions` body accepted, in bytes (413 above).
    public var maximumBodySize: Int
    /// Whether every action response must carry a valid action token (the default).
    public var requireActionTokens: Bool
    /// The `Retry-After` seconds of every 429 and 503 the server sends.
    public var retryAfter: RetryAfterPolicy
    /// The operators' token (`GET /v1/actions/{id}`, `/v1/deliveries`, the `/admin` page);
    /// without one those do not exist.
    public var adminToken: String?
    /// The most accepts in progress at once; past it requests get 429.
    public var maximumConcurrentAccepts: Int
    /// The backend's bearer token for the badge endpoints (`POST /v1/notifications`, and the
    /// backend's side of `POST /v1/badge/read` and `GET /v1/badge/{user}`).
    public var backendToken: String?
    /// How long an unread notification counts on its user's badge (30 days by default).
    public var badgeLifetime: TimeInterval
    /// Whether the admin page's session cookie is `Secure` (sent over HTTPS only): on when the
    /// server serves TLS itself, or sits behind a proxy that terminates it.
    public var secureAdminCookie: Bool = false
    /// Whether action tokens without a `pld` claim (minted before payloads were bound) are
    /// accepted, their payload unchecked: for a migration window only. Off by default, so a
    /// phone cannot rewrite the payload that is forwarded under the server's signature.
    public var acceptUnboundPayloads: Bool = false
    /// Whether the server signs for endpoints without a secret of their own (`--forward-secret`).
    public var hasDefaultWebhookSecret: Bool = false
    /// Whether requests are traced: each gets a server span, continuing the caller's
    /// `traceparent`, through the process's bootstrapped tracer (`--otel-endpoint`).
    public var tracing: Bool = false
    /// How many devices one user may register (`--max-devices-per-user`, and registrations an
    /// hour).
    public var deviceLimits = DeviceLimits()

    /// `Retry-After` seconds sent with 503 when storage is unavailable.
    public var retryAfterSeconds: Int {
        get { retryAfter.storageUnavailable }
        set { retryAfter.storageUnavailable = newValue }
    }

    /// The defaults: 16 KiB bodies, tokens required, no status endpoint, 1024 accepts at once.
    public init(
        maximumBodySize: Int = 16 * 1024, requireActionTokens: Bool = true, retryAfterSeconds: Int = 5,
        adminToken: String? = nil, maximumConcurrentAccepts: Int = 1024, backendToken: String? = nil,
        badgeLifetime: TimeInterval = 30 * 24 * 3600
    ) {
        self.backendToken = backendToken
        self.badgeLifetime = badgeLifetime
        self.maximumConcurrentAccepts = maximumConcurrentAccepts
        self.maximumBodySize = maximumBodySize
        self.requireActionTokens = requireActionTokens
        self.retryAfter = RetryAfterPolicy(storageUnavailable: retryAfterSeconds)
        self.adminToken = adminToken
    }
}

/// How long a client is asked to wait, by reason: one place decides every `Retry-After`.
public struct RetryAfterPolicy: Hashable, Sendable {
    /// Seconds after a 429: accepts in progress were at their limit (short: a slot frees fast).
    public var overloaded: Int
    /// Seconds after a 503: storage is unreachable or not open yet.
    public var storageUnavailable: Int

    /// A policy of `overloaded` (1 s) and `storageUnavailable` (5 s) seconds.
    public init(overloaded: Int = 1, storageUnavailable: Int = 5) {
        self.overloaded = overloaded
        self.storageUnavailable = storageUnavailable
    }
}
