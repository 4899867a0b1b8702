public import Foundation

/// One delivery to one endpoint, with its lease.
struct EndpointDeliveryRow {
    var delivery: EndpointDelivery
    var leaseOwner: String?
    var leaseUntil: Date?
}

extension InMemoryActionStore: EndpointStore {
    public func endpoints() -> [Endpoint] { endpointTable.values.sorted { $0.id < $1.id } }
    public func endpoint(id: String) -> Endpoint? { endpointTable[id] }

    public func polledEndpoints(at now: Date) -> [PolledEndpoint] {
        endpoints().map { endpoint in
            PolledEndpoint(
                endpoint: endpoint,
                hasDueDeliveries: endpointDeliveries.values.contains { deliveries in
                    guard let row = deliveries[endpoint.id] else { return false }
                    return row.delivery.status == .pending && row.delivery.nextAttemptAt <= now && (row.leaseUntil.map { $0 < now } ?? true)
                })
        }
    }

    public func createEndpoint(_ endpoint: Endpoint) -> Bool {
        guard endpointTable[endpoint.id] == nil else { return false }
        endpointTable[endpoint.id] = endpoint
        releaseHeld(at: endpoint.createdAt)
        return true
    }

    /// Lets every held response go, due at `at`.
    private func releaseHeld(at: Date) {
        for (id, row) in rows where row.action.status == .held {
            rows[id]?.action.status = .pending
            rows[id]?.action.nextAttemptAt = at
            rows[id]?.action.lastError = nil
        }
    }

    public func fanOutAtAccept(_ fanOut: AcceptFanOut) { acceptFanOut = fanOut }

    /// Nothing in memory outlives a start: no endpoint was paused by an older version.
    public func resumeIfPausedByMissingFlag(id: String, at: Date) -> Bool { false }

    public func hold(_ responses: [HeldResponse], owner: String) {
        for held in responses {
            guard let row = rows[held.responseID], row.leaseOwner == owner, row.action.status == .pending, !row.fannedOut else { continue }
            let taken = endpointTable.values.contains { $0.takes(category: held.category, action: held.action) }
            update(held.responseID, owner: owner) {
                $0.action.attempts = max(0, $0.action.attempts - 1)
                if !taken {
                    $0.action.status = .held
                    $0.action.lastError = held.reason
                }
            }
        }
    }

    public func updateEndpoint(id: String, _ change: EndpointChange, at: Date) -> Endpoint? {
        guard let endpoint = endpointTable[id] else { return nil }
        let changed = change.applied(to: endpoint)
        endpointTable[id] = changed
        if change.releasesHeldDeliveries(of: endpoint) { release(endpointID: id, at: at) }
        releaseHeld(at: at)
        return changed
    }

    public func fanOut(_ routes: [FanOut], owner: String, at: Date) {
        for route in routes {
            guard let row = rows[route.responseID], row.leaseOwner == owner, row.action.status == .pending, !row.fannedOut else { continue }
            update(route.responseID, owner: owner) {
                $0.fannedOut = true
                $0.action.attempts = 0
                $0.action.lastError = nil
            }
            for endpointID in route.endpointIDs where endpointDeliveries[route.responseID]?[endpointID] == nil {
                endpointDeliveries[route.responseID, default: [:]][endpointID] = EndpointDeliveryRow(
                    delivery: EndpointDelivery(
                        responseID: route.responseID, endpointID: endpointID, status: .pending, attempts: 0, nextAttemptAt: at, queuedAt: at))
            }
        }
    }

    public func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
        if claimable: @escaping @Sendable (Endpoint) -> Bool
    ) -> EndpointClaim {
        guard var endpoint = endpointTable[endpointID] else { return EndpointClaim(endpoint: nil, deliveries: []) }
        guard claimable(endpoint) else { return EndpointClaim(endpoint: endpoint, deliveries: []) }
        let plan = EndpointGate.plan(endpoint, now: now, limit: limit, breaker: breaker)
        guard plan.limit > 0 else { return EndpointClaim(endpoint: endpoint, deliveries: []) }
        let due = endpointDeliveries.values.compactMap { $0[endpointID] }.filter { row in
            row.delivery.status == .pending && row.delivery.nextAttemptAt <= now && (row.leaseUntil.map { $0 < now } ?? true)
        }.sorted { ($0.delivery.nextAttemptAt, $0.delivery.responseID) < ($1.delivery.nextAttemptAt, $1.delivery.responseID) }
            .prefix(plan.limit)
        var claimed: [ClaimedDelivery] = []
        for (index, row) in due.enumerated() {
            var row = row
            if row.leaseOwner != nil { row.delivery.expiredLeases += 1 }  // its lease ran out without an outcome
            row.leaseOwner = owner
            row.leaseUntil = now.addingTimeInterval(lease)
            row.delivery.attempts += 1
            endpointDeliveries[row.delivery.responseID]?[endpointID] = row
            guard let response = rows[row.delivery.responseID]?.action else { continue }
            claimed.append(EndpointTable.claimed(response, delivery: row.delivery, sendAt: plan.slot(index)))
        }
        if !claimed.isEmpty {
            if let probeUntil = plan.probeUntil { endpoint.openUntil = probeUntil }
            if let next = plan.nextSlot(after: claimed.count) { endpoint.nextSlotAt = next }
            endpointTable[endpointID] = endpoint
        }
        return EndpointClaim(endpoint: endpoint, deliveries: claimed)
    }

    public func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) -> [EndpointGate.Fate?] {
        attempts.map { attempt in
            finish(
                responseID: attempt.responseID, endpointID: attempt.endpointID, owner: owner, outcome: attempt.outcome, breaker: breaker,
                at: attempt.at)
        }
    }

    private func finish(
        responseID: String, endpointID: String, owner: String, outcome: DeliveryOutcome, breaker: BreakerSettings, at: Date
    ) -> EndpointGate.Fate? {
        guard let row = endpointDeliveries[responseID]?[endpointID], row.leaseOwner == owner, row.delivery.status == .pending,
            let endpoint = endpointTable[endpointID]
        else { return nil }
        let (changed, fate) = EndpointGate.finish(endpoint, outcome: outcome, breaker: breaker, now: at)
        var delivery = row.delivery
        switch fate {
        case .delivered:
            delivery.status = .delivered
            delivery.lastError = nil
            delivery.deliveredAt = at
        case .retry(let next):
            delivery.nextAttemptAt = next
            delivery.lastError = outcome.error
        case .held:
            delivery.attempts = max(0, delivery.attempts - 1)
            delivery.nextAttemptAt = at
            delivery.lastError = outcome.error
        case .dead(let reason):
            delivery.status = .dead
            delivery.lastError = reason
        }
        endpointDeliveries[responseID]?[endpointID] = EndpointDeliveryRow(delivery: delivery)
        endpointTable[endpointID] = changed
        if endpoint.openUntil != nil && changed.openUntil == nil { release(endpointID: endpointID, at: at) }
        return fate
    }

    public func endpointDeliveries(responseID: String) -> [EndpointDelivery] {
        (endpointDeliveries[responseID] ?? [:]).values.map(\.delivery).sorted { $0.endpointID < $1.endpointID }
    }

    /// Queues again the deliveries of response `id` that a re-queue takes (see
    /// `ActionTable/requeueDeliveries(count:_:)`).
    func requeueDeliveries(of id: String, at: Date) {
        guard let deliveries = endpointDeliveries[id] else { return }
        let anyDead = deliveries.values.contains { $0.delivery.status == .dead }
        for (endpointID, row) in deliveries where row.delivery.status != .pending && (!anyDead || row.delivery.status == .dead) {
            endpointDeliveries[id]?[endpointID] = EndpointDeliveryRow(
                delivery: EndpointDelivery(
                    responseID: id, endpointID: endpointID, status: .pending, attempts: 0, nextAttemptAt: at, queuedAt: at))
        }
    }

    private func release(endpointID: String, at: Date) {
        for (responseID, deliveries) in endpointDeliveries {
            guard var row = deliveries[endpointID], row.delivery.status == .pending else { continue }
            row.delivery.nextAttemptAt = at
            row.delivery.queuedAt = at
            endpointDeliveries[responseID]?[endpointID] = row
        }
    }

    /// Row `id` as operators see it (`ResponseStates`): a routed response's state from its
    /// deliveries, read now.
    func summarized(_ row: Row) -> (response: AcceptedResponse, deliveredAt: Date?) {
        guard row.fannedOut else { return (row.action, row.deliveredAt) }
        return row.action.summarized(by: endpointDeliveries(responseID: row.action.id), deliveredAt: row.deliveredAt)
    }
}

extension DeliveryOutcome {
    /// The error an attempt recorded, if it failed.
    public var error: String? {
        switch self {
        case .delivered: return nil
        case .rejected(let reason), .setAside(let reason): return reason
        case .failed(let error, _): return error
        }
    }
}

extension InMemoryActionStore {
    public func recordSignOut(session: String, until: Date, now: Date) {
        signOuts = signOuts.filter { $0.value >= now }
        if signOuts[session] == nil { signOuts[session] = until }
    }

    public func isSignedOut(session: String) -> Bool { signOuts[session] != nil }
}
