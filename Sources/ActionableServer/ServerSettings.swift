/// What the HTTP layer needs to know (SPEC §3, §6); the command line and configuration fill it.
public struct ServerSettings: Sendable {
    /// The largest `POST /v1/actions` body accepted, in bytes (413 above).
    public var maximumBodySize: Int
    /// Whether every action response must carry a valid action token (the default).
    public var requireActionTokens: Bool
    /// `Retry-After` seconds sent with 503 when storage is unavailable.
    public var retryAfterSeconds: Int
    /// The bearer token of `GET /v1/actions/{id}`; without one the endpoint does not exist.
    public var adminToken: String?
    /// The most accepts in progress at once; past it requests get 429 with `Retry-After: 1`.
    public var maximumConcurrentAccepts: Int

    /// The defaults of SPEC §3: 16 KiB bodies, tokens required, no status endpoint.
    public init(
        maximumBodySize: Int = 16 * 1024, requireActionTokens: Bool = true, retryAfterSeconds: Int = 5,
        adminToken: String? = nil, maximumConcurrentAccepts: Int = 1024
    ) {
        self.maximumConcurrentAccepts = maximumConcurrentAccepts
        self.maximumBodySize = maximumBodySize
        self.requireActionTokens = requireActionTokens
        self.retryAfterSeconds = retryAfterSeconds
        self.adminToken = adminToken
    }
}
