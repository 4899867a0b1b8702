public import Foundation

/// Endpoints as data and each response's delivery to each of them: what `/v1/endpoints`, the
/// fan-out and the endpoint worker use. Every driver implements it; the conformance suite checks
/// it (`EndpointStoreConformanceTests`).
public protocol EndpointStore: Sendable {
    /// Every endpoint, by id.
    func endpoints() async throws -> [Endpoint]

    /// The endpoint with `id`, read alone (`nil`: none).
    func endpoint(id: String) async throws -> Endpoint?

    /// Every endpoint, by id, each with whether one of its deliveries is due at `now` (pending,
    /// due, its lease free or run out): what the endpoint worker's poll reads, so that an idle
    /// poll is one statement and starts no claim. A driver without it says every endpoint may
    /// have work (the claim finds out).
    func polledEndpoints(at now: Date) async throws -> [PolledEndpoint]

    /// Stores a new endpoint; `false` when its id is taken. Held responses (``ResponseStatus/held``)
    /// are let go in the same transaction, so that the new endpoint receives those it takes.
    func createEndpoint(_ endpoint: Endpoint) async throws -> Bool

    /// Changes endpoint `id`; returns it changed, or `nil` when there is none. Resuming it (or
    /// giving it a new URL) lets its held deliveries go with a fresh retry window from `at`; held
    /// responses are let go too (a new filter may take them).
    func updateEndpoint(id: String, _ change: EndpointChange, at: Date) async throws -> Endpoint?

    /// Sets claimed responses that no handler or endpoint takes aside as held, each with its
    /// reason, giving back the attempt the claim counted — unless an endpoint that takes one
    /// exists by now (read in the same transaction, so that one created meanwhile is never
    /// missed): that response is given back, due, for the next round to fan out. A response
    /// whose lease `owner` lost is skipped.
    func hold(_ responses: [HeldResponse], owner: String) async throws

    /// From now on, hands each accepted response to its endpoints in the accept's own commit, as
    /// `fanOut` plans (a store that does not leaves it to the delivery worker's fan-out).
    func fanOutAtAccept(_ fanOut: AcceptFanOut) async

    /// Resumes endpoint `id` if only a start without its `--forward` flag had paused it (as
    /// versions before 11 did), letting its held deliveries go from `at`; whether it did.
    func resumeIfPausedByMissingFlag(id: String, at: Date) async throws -> Bool

    /// Hands each claimed response to its endpoints: one pending delivery per endpoint id, due at
    /// `at`; the response then waits for them. A response whose lease `owner` lost is skipped.
    func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws

    /// Claims endpoint `endpointID`'s due deliveries, as many as its pause, breaker and rate limit
    /// allow (``EndpointGate/plan(_:now:limit:breaker:)``), each under a lease for `owner` — only
    /// when `claimable` says yes of the endpoint as the claim reads it (an instance that cannot sign
    /// for it claims nothing). Returns that endpoint with the deliveries: the claim's one read of
    /// it, so that a worker needs no read of its own.
    func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
        if claimable: @escaping @Sendable (Endpoint) -> Bool
    ) async throws -> EndpointClaim

    /// Records attempts' outcomes (``EndpointGate/finish(_:outcome:breaker:now:)``), in order, on
    /// each delivery and its endpoint's breaker, all in one transaction: one write per attempt
    /// (its delivery's row), and one per endpoint whose breaker or streak the batch moved. The
    /// response's own row is not written (`ResponseStates`). Each fate is `nil` where `owner` no
    /// longer holds the lease.
    func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?]

    /// The deliveries of one response, by endpoint id.
    func endpointDeliveries(responseID: String) async throws -> [EndpointDelivery]
}

extension EndpointStore {
    /// Claims endpoint `endpointID`'s due deliveries whatever the endpoint
    /// (``claimDeliveries(endpointID:now:limit:lease:owner:breaker:if:)``).
    public func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings
    ) async throws -> [ClaimedDelivery] {
        try await claimDeliveries(endpointID: endpointID, now: now, limit: limit, lease: lease, owner: owner, breaker: breaker, if: { _ in true })
            .deliveries
    }

    /// Records one attempt's outcome (``finishDeliveries(_:owner:breaker:)``).
    public func finishDelivery(
        responseID: String, endpointID: String, owner: String, outcome: DeliveryOutcome, breaker: BreakerSettings, at: Date
    ) async throws -> EndpointGate.Fate? {
        try await finishDeliveries(
            [FinishedAttempt(responseID: responseID, endpointID: endpointID, outcome: outcome, at: at)], owner: owner, breaker: breaker
        ).first ?? nil
    }

    /// Every endpoint, each said to have work: the claim finds out.
    public func polledEndpoints(at now: Date) async throws -> [PolledEndpoint] {
        try await endpoints().map { PolledEndpoint(endpoint: $0, hasDueDeliveries: true) }
    }
}

/// An endpoint as a poll reads it: the endpoint, and whether a delivery of it is due.
public struct PolledEndpoint: Hashable, Sendable {
    public var endpoint: Endpoint
    /// A delivery of it is pending, due, and not held by a live lease (or the driver cannot say).
    public var hasDueDeliveries: Bool

    public init(endpoint: Endpoint, hasDueDeliveries: Bool) {
        self.endpoint = endpoint
        self.hasDueDeliveries = hasDueDeliveries
    }
}

/// The deliveries a batch of just-accepted responses gets in the accept's own commit: for each,
/// the endpoints whose filter takes it — none for one an in-process handler takes, or that no
/// endpoint takes (the delivery worker holds it, visibly). No second claim stage: the endpoint
/// workers find the deliveries at once.
public struct AcceptFanOut: Sendable {
    /// Whether an in-process handler takes category and action (it then takes precedence).
    public var handledInProcess: @Sendable (_ category: String, _ action: String) -> Bool

    public init(handledInProcess: @escaping @Sendable (_ category: String, _ action: String) -> Bool = { _, _ in false }) {
        self.handledInProcess = handledInProcess
    }

    /// The endpoints (ids) each of `responses` goes to, among `endpoints`; empty where none.
    public func plan(_ responses: [(category: String, action: String)], endpoints: [Endpoint]) -> [[String]] {
        guard !endpoints.isEmpty else { return responses.map { _ in [] } }
        return responses.map { response in
            if handledInProcess(response.category, response.action) { return [] }
            return endpoints.filter { $0.takes(category: response.category, action: response.action) }.map(\.id)
        }
    }
}

/// A claimed response no handler or endpoint takes.
public struct HeldResponse: Hashable, Sendable {
    public var responseID: String
    public var category: String
    public var action: String
    /// Why it waits: no endpoint takes its category and action.
    public var reason: String

    public init(responseID: String, category: String, action: String, reason: String) {
        self.responseID = responseID
        self.category = category
        self.action = action
        self.reason = reason
    }
}

/// One response handed to its endpoints.
public struct FanOut: Hashable, Sendable {
    public var responseID: String
    public var endpointIDs: [String]

    public init(responseID: String, endpointIDs: [String]) {
        self.responseID = responseID
        self.endpointIDs = endpointIDs
    }
}

/// One response's delivery to one endpoint.
public struct EndpointDelivery: Hashable, Sendable {
    public var responseID: String
    public var endpointID: String
    /// `pending`, `delivered` or `dead`: a delivery's states are a response's (never `held`: a
    /// delivery whose endpoint's breaker is open, or whose endpoint is paused, stays `pending`).
    public var status: ResponseStatus
    public var attempts: Int
    public var nextAttemptAt: Date
    /// When its current retry window began.
    public var queuedAt: Date
    public var lastError: String?
    public var deliveredAt: Date?
    /// Leases of it that ran out without an outcome (``LeasePolicy``).
    public var expiredLeases: Int

    public init(
        responseID: String, endpointID: String, status: ResponseStatus, attempts: Int, nextAttemptAt: Date, queuedAt: Date,
        lastError: String? = nil, deliveredAt: Date? = nil, expiredLeases: Int = 0
    ) {
        self.expiredLeases = expiredLeases
        self.responseID = responseID
        self.endpointID = endpointID
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.queuedAt = queuedAt
        self.lastError = lastError
        self.deliveredAt = deliveredAt
    }

    /// The `webhook-id` (and `Idempotency-Key`) of every attempt of this delivery: the response
    /// id, the same for every endpoint (one message, as Standard Webhooks and Svix send it), so
    /// `GET /v1/actions/{id}` finds it; the endpoint goes in a header of its own
    /// (`webhook-endpoint`).
    public var webhookID: String { responseID }
}

/// A claimed delivery: the response, the delivery, and when to send it (its rate-limit slot).
/// What a claim of one endpoint's deliveries came to
/// (``EndpointStore/claimDeliveries(endpointID:now:limit:lease:owner:breaker:if:)``).
public struct EndpointClaim: Sendable {
    /// The endpoint as the claim read it; `nil` when it does not exist.
    public var endpoint: Endpoint?
    /// The deliveries claimed, in claim order; none when the endpoint was not claimable.
    public var deliveries: [ClaimedDelivery]

    public init(endpoint: Endpoint?, deliveries: [ClaimedDelivery]) {
        self.endpoint = endpoint
        self.deliveries = deliveries
    }
}

public struct ClaimedDelivery: Hashable, Sendable {
    /// The response, with this delivery's attempts and retry window.
    public var action: AcceptedResponse
    public var endpointID: String
    /// Not before this time: the endpoint's rate limit.
    public var sendAt: Date

    public init(action: AcceptedResponse, endpointID: String, sendAt: Date) {
        self.action = action
        self.endpointID = endpointID
        self.sendAt = sendAt
    }

    /// This delivery's `webhook-id`.
    public var webhookID: String { action.id }
}

/// One attempt's outcome, to record (``EndpointStore/finishDeliveries(_:owner:breaker:)``).
public struct FinishedAttempt: Hashable, Sendable {
    public var responseID: String
    public var endpointID: String
    public var outcome: DeliveryOutcome
    /// When the attempt ended.
    public var at: Date

    public init(responseID: String, endpointID: String, outcome: DeliveryOutcome, at: Date) {
        self.responseID = responseID
        self.endpointID = endpointID
        self.outcome = outcome
        self.at = at
    }
}
