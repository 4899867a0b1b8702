public import Foundation

/// What an endpoint's pause, circuit breaker and rate limit allow, decided the same way by every
/// driver inside the transaction that claims or finishes its deliveries (so instances sharing
/// storage share one breaker and one rate).
public enum EndpointGate {
    /// How many deliveries a claim may take, and the send time of each.
    public struct Plan: Hashable, Sendable {
        /// The most deliveries to claim now.
        public var limit: Int
        /// The first claimed delivery's send time; the next ones follow at `interval`.
        public var firstSlot: Date
        /// Seconds between two sends (0 without a rate limit).
        public var interval: TimeInterval
        /// The breaker's next probe, to be stored when this claim is a probe.
        public var probeUntil: Date?

        /// The send time of the `index`th claimed delivery.
        public func slot(_ index: Int) -> Date { firstSlot.addingTimeInterval(interval * Double(index)) }
        /// The endpoint's next free slot after `claimed` deliveries.
        public func nextSlot(after claimed: Int) -> Date? { interval > 0 ? slot(claimed) : nil }
    }

    /// How far ahead a rate-limited endpoint's slots are handed out: claimed deliveries wait for
    /// their slot, at most this long, before they are sent.
    public static let lookahead: TimeInterval = 1

    /// What `endpoint` allows at `now`, for at most `limit` deliveries: nothing while paused or
    /// open (but one probe once the open breaker's time is up), and no more than its rate.
    public static func plan(_ endpoint: Endpoint, now: Date, limit: Int, breaker: BreakerSettings) -> Plan {
        if endpoint.paused { return Plan(limit: 0, firstSlot: now, interval: 0) }
        var limit = limit
        var probeUntil: Date?
        if let openUntil = endpoint.openUntil {
            guard openUntil <= now else { return Plan(limit: 0, firstSlot: now, interval: 0) }
            limit = min(limit, 1)
            probeUntil = now.addingTimeInterval(breaker.probeEvery)
        }
        guard let rate = endpoint.rateLimit, rate > 0 else { return Plan(limit: limit, firstSlot: now, interval: 0, probeUntil: probeUntil) }
        let interval = 1 / rate
        let first = max(endpoint.nextSlotAt ?? now, now)
        let horizon = now.addingTimeInterval(lookahead)
        let slots = first < horizon ? Int((horizon.timeIntervalSince(first) / interval).rounded(.up)) : 0
        return Plan(limit: min(limit, slots), firstSlot: first, interval: interval, probeUntil: probeUntil)
    }

    /// What an attempt's outcome does to its delivery.
    public enum Fate: Hashable, Sendable {
        case delivered
        /// Due again at the date (an attempt spent).
        case retry(Date)
        /// Held: the endpoint's breaker is open; the attempt is given back and the delivery waits.
        case held
        case dead(String)
    }

    /// The endpoint after an attempt with `outcome`, and the delivery's fate.
    public static func finish(
        _ endpoint: Endpoint, outcome: DeliveryOutcome, breaker: BreakerSettings, now: Date
    ) -> (endpoint: Endpoint, fate: Fate) {
        var endpoint = endpoint
        switch outcome {
        case .delivered:
            endpoint.failureStreak = 0
            endpoint.openUntil = nil
            return (endpoint, .delivered)
        case .rejected(let reason):
            // The endpoint answered: it is up, whatever it thought of this delivery.
            endpoint.failureStreak = 0
            endpoint.openUntil = nil
            return (endpoint, .dead(reason))
        case .setAside(let reason):
            return (endpoint, .dead(reason))
        case .failed(let error, let retryAt):
            let wasOpen = endpoint.openUntil != nil
            endpoint.failureStreak += 1
            if wasOpen || endpoint.failureStreak >= breaker.failures {
                endpoint.openUntil = max(endpoint.openUntil ?? now, now.addingTimeInterval(breaker.probeEvery))
                return (endpoint, .held)
            }
            guard let retryAt else { return (endpoint, .dead(error)) }
            return (endpoint, .retry(retryAt))
        }
    }

    /// A response's delivery state as operators see it, from its deliveries: pending while one
    /// is, dead when one is dead, delivered when all are.
    public static func aggregate(_ deliveries: [EndpointDelivery]) -> ResponseSummary? {
        guard !deliveries.isEmpty else { return nil }
        let status: ResponseStatus =
            deliveries.contains { $0.status == .pending } ? .pending : deliveries.contains { $0.status == .dead } ? .dead : .delivered
        let errors = deliveries.filter { $0.status != .delivered }.compactMap { delivery in
            delivery.lastError.map { "\(delivery.endpointID): \($0)" }
        }
        return ResponseSummary(
            status: status, attempts: deliveries.map(\.attempts).max() ?? 0,
            nextAttemptAt: deliveries.filter { $0.status == .pending }.map(\.nextAttemptAt).min(),
            lastError: errors.isEmpty ? nil : errors.joined(separator: "; "),
            deliveredAt: status == .delivered ? deliveries.compactMap(\.deliveredAt).max() : nil)
    }

    /// What a response row records of its deliveries.
    public struct ResponseSummary: Hashable, Sendable {
        public var status: ResponseStatus
        public var attempts: Int
        public var nextAttemptAt: Date?
        public var lastError: String?
        public var deliveredAt: Date?
    }
}

/// The outcome of one attempt to deliver to an endpoint.
public enum DeliveryOutcome: Hashable, Sendable {
    /// 2xx.
    case delivered
    /// The endpoint answered that it will never take it (a 4xx that is not retried).
    case rejected(String)
    /// Not attempted: set aside as dead without asking the endpoint (a poison delivery,
    /// ``LeasePolicy``). The endpoint's breaker and failure streak are left as they are.
    case setAside(String)
    /// A network error, a timeout, 408, 429 or 5xx; due again at `retryAt`, or `nil` when the
    /// retry window is spent.
    case failed(String, retryAt: Date?)
}
