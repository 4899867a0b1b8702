public import Foundation

/// An upstream that accepted responses are delivered to: created at runtime through
/// `/v1/endpoints` or seeded by a `--forward` flag, stored with everything else so that every
/// instance, and a restarted one, sees the same endpoints.
public struct Endpoint: Hashable, Sendable {
    /// Its name: lowercase letters, digits and `-`, at most 64 characters.
    public var id: String
    /// Where deliveries are POSTed (`http://` or `https://`).
    public var url: String
    /// The route patterns it takes (`category.action`, `category.*`, `*`).
    public var filter: [String]
    /// Its own `whsec_` secret; `nil`: the server's `--forward-secret`.
    public var secret: String?
    /// The secret it replaced, still signed with during a rotation (both signatures are sent).
    public var previousSecret: String?
    /// At most this many deliveries a second; `nil`: no limit.
    public var rateLimit: Double?
    /// Paused: its deliveries are held as pending.
    public var paused: Bool
    /// Seeded by a `--forward` flag rather than created through the API.
    public var seeded: Bool
    /// Failed attempts since its last success.
    public var failureStreak: Int
    /// Its circuit breaker is open until (the next probe); `nil`: closed.
    public var openUntil: Date?
    /// The earliest time its rate limit allows the next attempt.
    public var nextSlotAt: Date?
    /// When it was created.
    public var createdAt: Date

    /// An endpoint; breaker and rate state start empty.
    public init(
        id: String, url: String, filter: [String], secret: String? = nil, previousSecret: String? = nil, rateLimit: Double? = nil,
        paused: Bool = false, seeded: Bool = false, failureStreak: Int = 0, openUntil: Date? = nil, nextSlotAt: Date? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.url = url
        self.filter = filter
        self.secret = secret
        self.previousSecret = previousSecret
        self.rateLimit = rateLimit
        self.paused = paused
        self.seeded = seeded
        self.failureStreak = failureStreak
        self.openUntil = openUntil
        self.nextSlotAt = nextSlotAt
        self.createdAt = createdAt
    }

    /// Where it stands, as operators see it.
    public var state: EndpointState {
        if paused { return .paused }
        return openUntil == nil ? .active : .open
    }

    /// Whether its filter takes a response to `action` of `category`: a pattern `*`,
    /// `category.*` or `category.action`.
    public func takes(category: String, action: String) -> Bool {
        filter.contains { pattern in
            pattern == "*" || (pattern.hasSuffix(".*") && pattern.dropLast(2) == category) || pattern == "\(category).\(action)"
        }
    }

    /// Whether `id` is a valid endpoint name.
    public static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
            && id.first != "-"
    }
}

/// Where an endpoint stands.
public enum EndpointState: String, Hashable, Sendable, CaseIterable {
    /// Delivering.
    case active
    /// Paused by an operator: deliveries held.
    case paused
    /// Its circuit breaker is open: deliveries held, one probe at a time.
    case open
}

/// A change to an endpoint; `nil` members stay as they are.
public struct EndpointChange: Hashable, Sendable {
    public var url: String?
    public var filter: [String]?
    /// A new secret: the current one becomes the previous one, and both sign until the previous
    /// one is dropped.
    public var secret: String?
    /// `true`: stop signing with the previous secret.
    public var dropPreviousSecret: Bool
    /// `.some(nil)` removes the limit.
    public var rateLimit: Double??
    public var paused: Bool?

    public init(
        url: String? = nil, filter: [String]? = nil, secret: String? = nil, dropPreviousSecret: Bool = false,
        rateLimit: Double?? = nil, paused: Bool? = nil
    ) {
        self.url = url
        self.filter = filter
        self.secret = secret
        self.dropPreviousSecret = dropPreviousSecret
        self.rateLimit = rateLimit
        self.paused = paused
    }

    /// `endpoint` with the change applied at `now`. Resuming (or a new URL) closes the breaker:
    /// the operator says the endpoint is worth trying.
    public func applied(to endpoint: Endpoint) -> Endpoint {
        var changed = endpoint
        if let url {
            changed.url = url
            changed.openUntil = nil
            changed.failureStreak = 0
        }
        if let filter { changed.filter = filter }
        if let secret, secret != endpoint.secret {
            // Rotating away from the server's secret keeps signing with it, as with any other.
            changed.previousSecret = endpoint.secret ?? Endpoint.serverSecret
            changed.secret = secret
        }
        if dropPreviousSecret { changed.previousSecret = nil }
        if let rateLimit {
            changed.rateLimit = rateLimit
            changed.nextSlotAt = nil
        }
        if let paused {
            changed.paused = paused
            if !paused {
                changed.openUntil = nil
                changed.failureStreak = 0
            }
        }
        return changed
    }

    /// Whether the change lets the endpoint's held deliveries go: resumed, or a new URL.
    public func releasesHeldDeliveries(of endpoint: Endpoint) -> Bool {
        (paused == false && endpoint.paused) || (url != nil && url != endpoint.url)
    }
}

/// The circuit breaker's settings (`--breaker-failures`, `--breaker-probe`).
public struct BreakerSettings: Hashable, Sendable {
    /// Consecutive failures that open the breaker.
    public var failures: Int
    /// How long an open breaker waits between probes.
    public var probeEvery: TimeInterval

    public init(failures: Int = 10, probeEvery: TimeInterval = 60) {
        self.failures = failures
        self.probeEvery = probeEvery
    }
}

extension Endpoint {
    /// Stands for the server's `--forward-secret` as an endpoint's previous secret: the endpoint
    /// signed with it before it was given its own.
    public static let serverSecret = "server"

    /// How many secrets sign each call: its own (or the server's) and, during a rotation, the one
    /// it replaced.
    public var signingSecrets: Int { 1 + (previousSecret == nil ? 0 : 1) }

    /// The key of a Standard Webhooks secret: the base64 after `whsec_` (which may be left out),
    /// at least 16 bytes; `nil` when `secret` is not one.
    public static func secretKey(_ secret: String) -> [UInt8]? {
        let encoded = secret.hasPrefix("whsec_") ? String(secret.dropFirst("whsec_".count)) : secret
        guard let bytes = Data(base64Encoded: encoded), bytes.count >= 16 else { return nil }
        return Array(bytes)
    }
}
