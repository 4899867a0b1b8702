/// An endpoint as `/v1/endpoints` answers it (`WebhookEndpoint` in `openapi.yaml`). Secrets are
/// never sent back: only how many sign each call.
public struct WebhookEndpoint: Codable, Hashable, Sendable {
    /// Its name.
    public var id: String
    /// Where deliveries are POSTed.
    public var url: String
    /// The route patterns it takes.
    public var filter: [String]
    /// At most this many deliveries a second; `null`: no limit (always present).
    @Nullable public var rateLimit: Double?
    /// Paused by an operator.
    public var paused: Bool
    /// `active`, `paused` or `open` (its circuit breaker).
    public var state: String
    /// Failed attempts since its last success.
    public var failureStreak: Int
    /// When an open breaker lets its next probe through, in Unix seconds; `null` when closed.
    @Nullable public var nextProbeAt: Double?
    /// How many secrets sign each call: 1, or 2 during a rotation.
    public var secrets: Int
    /// Seeded by a `--forward` flag.
    public var seeded: Bool

    /// An endpoint's answer.
    public init(
        id: String, url: String, filter: [String], rateLimit: Double?, paused: Bool, state: String, failureStreak: Int,
        nextProbeAt: Double?, secrets: Int, seeded: Bool
    ) {
        self.id = id
        self.url = url
        self.filter = filter
        self.rateLimit = rateLimit
        self.paused = paused
        self.state = state
        self.failureStreak = failureStreak
        self.nextProbeAt = nextProbeAt
        self.secrets = secrets
        self.seeded = seeded
    }
}

/// `GET /v1/endpoints` (`WebhookEndpointList` in `openapi.yaml`), by id.
public struct WebhookEndpointList: Codable, Hashable, Sendable {
    public var items: [WebhookEndpoint]

    /// The list.
    public init(items: [WebhookEndpoint]) { self.items = items }
}
