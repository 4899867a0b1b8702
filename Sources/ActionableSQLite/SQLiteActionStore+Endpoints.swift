public import ActionableStore
public import Foundation
import GRDB

/// Endpoints and their deliveries on SQLite: each claim and each outcome is one write transaction,
/// in which the endpoint's breaker and rate are read, decided (``EndpointGate``) and written.
/// Fan-outs, claims and outcomes commit without an fsync of their own (``relaxedWrite(_:)``);
/// endpoint changes are durable when answered.
extension SQLiteActionStore {
    public func endpoints() async throws -> [Endpoint] {
        try await pool.read { db in try db.decodeAll(EndpointTable.selectAll) { try Self.decodeEndpoint($0) } }
    }

    public func endpoint(id: String) async throws -> Endpoint? {
        try await pool.read { db in try Self.endpoint(id, in: db) }
    }

    /// One read: the endpoints and whether each has a due delivery (an idle poll starts no claim).
    public func polledEndpoints(at now: Date) async throws -> [PolledEndpoint] {
        try await pool.read { db in
            try db.decodeAll(Self.selectAllWithDueSQL, [now.timeIntervalSince1970]) { row in
                PolledEndpoint(endpoint: try Self.decodeEndpoint(row), hasDueDeliveries: (row["due"] as Int? ?? 1) != 0)
            }
        }
    }
    private static let selectAllWithDueSQL = EndpointTable.selectAllWithDue(.sqlite)

    public func createEndpoint(_ endpoint: Endpoint) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: EndpointTable.insert(.sqlite), arguments: Self.arguments(EndpointTable.insertValues(endpoint)))
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: EndpointTable.releaseHeld(.sqlite), arguments: [endpoint.createdAt.timeIntervalSince1970])
            return true
        }
    }

    public func updateEndpoint(id: String, _ change: EndpointChange, at: Date) async throws -> Endpoint? {
        try await pool.write { db in
            guard let endpoint = try Self.endpoint(id, in: db) else { return nil }
            let changed = change.applied(to: endpoint)
            try db.execute(sql: EndpointTable.update(.sqlite), arguments: Self.arguments(EndpointTable.updateValues(changed)))
            if change.releasesHeldDeliveries(of: endpoint) {
                try db.execute(sql: EndpointTable.release(.sqlite), arguments: [at.timeIntervalSince1970, id])
            }
            if change.paused != nil { try db.execute(sql: EndpointTable.clearPausedByMissingFlag(.sqlite), arguments: [id]) }
            try db.execute(sql: EndpointTable.releaseHeld(.sqlite), arguments: [at.timeIntervalSince1970])
            return changed
        }
    }

    public func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws {
        try await relaxedWrite { db in
            for route in routes {
                guard try Row.fetchOne(db, sql: EndpointTable.markFannedOut(.sqlite), arguments: [route.responseID, owner]) != nil
                else { continue }
                for endpointID in route.endpointIDs {
                    try db.execute(
                        sql: EndpointTable.insertDelivery(.sqlite), arguments: [route.responseID, endpointID, at.timeIntervalSince1970])
                }
            }
        }
    }

    public func fanOutAtAccept(_ fanOut: AcceptFanOut) { committer.fanOutAtAccept(fanOut) }

    public func resumeIfPausedByMissingFlag(id: String, at: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: EndpointTable.resumePausedByMissingFlag(.sqlite), arguments: [id])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: EndpointTable.release(.sqlite), arguments: [at.timeIntervalSince1970, id])
            return true
        }
    }

    public func hold(_ responses: [HeldResponse], owner: String) async throws {
        guard !responses.isEmpty else { return }
        // The one writer orders this against endpoint changes: one created before is read here,
        // one created after lets these go again.
        try await relaxedWrite { db in
            let endpoints = try Row.fetchAll(db, sql: EndpointTable.selectAll).map(Self.decodeEndpoint)
            for held in responses {
                if endpoints.contains(where: { $0.takes(category: held.category, action: held.action) }) {
                    try db.execute(sql: EndpointTable.giveBack(.sqlite), arguments: [held.responseID, owner])
                } else {
                    try db.execute(sql: EndpointTable.hold(.sqlite), arguments: [held.reason, held.responseID, owner])
                }
            }
        }
    }

    public func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
        if claimable: @escaping @Sendable (Endpoint) -> Bool
    ) async throws -> EndpointClaim {
        let time = now.timeIntervalSince1970
        return try await relaxedWrite { db in
            guard var endpoint = try Self.endpoint(endpointID, in: db) else { return EndpointClaim(endpoint: nil, deliveries: []) }
            let none = EndpointClaim(endpoint: endpoint, deliveries: [])
            guard claimable(endpoint) else { return none }
            let plan = EndpointGate.plan(endpoint, now: now, limit: limit, breaker: breaker)
            guard plan.limit > 0 else { return none }
            let deliveries = try db.decodeAll(
                HotSQL.claimDeliveries, [owner, time + lease, time, plan.limit, endpointID]
            ) { try EndpointTable.decodeDelivery(SQLiteRow(row: $0)) }
            .sorted { ($0.nextAttemptAt, $0.responseID) < ($1.nextAttemptAt, $1.responseID) }
            guard !deliveries.isEmpty else { return none }
            let read = endpoint
            if let probeUntil = plan.probeUntil { endpoint.openUntil = probeUntil }
            if let next = plan.nextSlot(after: deliveries.count) { endpoint.nextSlotAt = next }
            // Written only when the claim moved it (a probe let through, a rate limit's next slot).
            if endpoint != read { try db.run(HotSQL.updateEndpoint, Self.arguments(EndpointTable.updateValues(endpoint))) }
            let responses = try db.decodeAll(
                HotSQL.selectResponses(count: deliveries.count), Self.arguments(deliveries.map { .text($0.responseID) }), Self.decode)
            return EndpointClaim(endpoint: endpoint, deliveries: EndpointTable.claimed(deliveries, responses: responses, plan: plan))
        }
    }

    public func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?] {
        try await relaxedWrite { db in
            // Each endpoint is read once per batch, moved by each outcome in turn, and written
            // once at the end if the batch moved it.
            var read: [String: Endpoint?] = [:]
            var current: [String: Endpoint] = [:]
            let fates = try attempts.map { attempt -> EndpointGate.Fate? in
                if read[attempt.endpointID] == nil {
                    let endpoint = try Self.endpoint(attempt.endpointID, in: db)
                    read[attempt.endpointID] = .some(endpoint)
                    current[attempt.endpointID] = endpoint
                }
                guard let endpoint = current[attempt.endpointID] else { return nil }
                let (fate, changed) = try Self.finish(
                    responseID: attempt.responseID, endpoint: endpoint, owner: owner, outcome: attempt.outcome,
                    breaker: breaker, at: attempt.at, in: db)
                current[attempt.endpointID] = changed
                return fate
            }
            for (id, endpoint) in current.sorted(by: { $0.key < $1.key }) where read[id] != .some(endpoint) {
                try db.run(HotSQL.updateEndpoint, Self.arguments(EndpointTable.updateValues(endpoint)))
            }
            return fates
        }
    }

    /// Records one attempt's outcome on `endpoint` (as this batch has it so far): its delivery's
    /// row, in one statement that applies only while this owner holds it pending, and the
    /// endpoint's held deliveries let go if its breaker closed. Returns the fate (`nil` when the
    /// delivery is no longer this owner's, or no longer pending) and the endpoint as it now is,
    /// for the caller to write.
    private static func finish(
        responseID: String, endpoint: Endpoint, owner: String, outcome: DeliveryOutcome, breaker: BreakerSettings, at: Date,
        in db: Database
    ) throws -> (EndpointGate.Fate?, Endpoint) {
        let (changed, fate) = EndpointGate.finish(endpoint, outcome: outcome, breaker: breaker, now: at)
        try db.run(
            HotSQL.finishLeased,
            arguments(
                EndpointTable.finishLeasedValues(
                    responseID: responseID, endpointID: endpoint.id, owner: owner, fate: fate, error: outcome.error, now: at)))
        guard db.changesCount == 1 else { return (nil, endpoint) }
        if endpoint.openUntil != nil && changed.openUntil == nil {
            // After this outcome is written (delivered or dead: no longer pending, so not let go).
            try db.run(HotSQL.releaseEndpoint, [at.timeIntervalSince1970, endpoint.id])
        }
        // The response's own row is not written: operators read its state from its deliveries.
        return (fate, changed)
    }

    public func endpointDeliveries(responseID: String) async throws -> [EndpointDelivery] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: EndpointTable.selectDeliveries(.sqlite), arguments: [responseID])
                .map { try EndpointTable.decodeDelivery(SQLiteRow(row: $0)) }
        }
    }

    private static func endpoint(_ id: String, in db: Database) throws -> Endpoint? {
        try db.decodeOne(HotSQL.selectEndpoint, [id], decodeEndpoint)
    }

    static func decodeEndpoint(_ row: Row) throws -> Endpoint { try EndpointTable.decode(SQLiteRow(row: row)) }

    static func arguments(_ values: [SQLValue]) -> StatementArguments {
        // Straight to DatabaseValue: no value boxed in an existential on the way.
        StatementArguments(
            values.map { value -> DatabaseValue in
                switch value {
                case .text(let text): return text.databaseValue
                case .real(let number): return number.databaseValue
                case .integer(let number): return number.databaseValue
                case .null: return .null
                }
            })
    }
}

extension SQLiteActionStore {
    public func recordSignOut(session: String, until: Date, now: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: AdminSignOutTable.prune(.sqlite), arguments: [now.timeIntervalSince1970])
            try db.execute(sql: AdminSignOutTable.insert(.sqlite), arguments: [session, until.timeIntervalSince1970])
        }
    }

    public func isSignedOut(session: String) async throws -> Bool {
        try await pool.read { db in try Row.fetchOne(db, sql: AdminSignOutTable.select(.sqlite), arguments: [session]) != nil }
    }
}
