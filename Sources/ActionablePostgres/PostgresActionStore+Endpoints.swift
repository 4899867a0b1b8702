import ActionableStore
import Foundation
import PostgresNIO

/// Endpoints and their deliveries on PostgreSQL: a claim or an outcome locks its endpoint's row
/// (`FOR UPDATE`) for its transaction, so instances share one breaker, one failure streak and one
/// rate; deliveries are claimed with `FOR UPDATE SKIP LOCKED` under a lease.
extension PostgresActionStore {
    public func endpoints() async throws -> [Endpoint] {
        do {
            let rows = try await client.query(PostgresQuery(unsafeSQL: EndpointTable.selectAll), logger: logger)
            var endpoints: [Endpoint] = []
            for try await row in rows { endpoints.append(try EndpointTable.decode(PostgresActionRow(columns: row.makeRandomAccess()))) }
            return endpoints
        } catch {
            throw Self.readable(error)
        }
    }

    public func createEndpoint(_ endpoint: Endpoint) async throws -> Bool {
        try await transaction { connection, logger in
            try await Self.lockHeld(connection, logger)
            let created = try await Self.rows(
                EndpointTable.insert(.postgres) + " RETURNING id", EndpointTable.insertValues(endpoint), connection, logger)
            guard !created.isEmpty else { return false }
            try await Self.run(EndpointTable.releaseHeld(.postgres), [.real(endpoint.createdAt.timeIntervalSince1970)], connection, logger)
            return true
        }
    }

    /// Orders holding responses against endpoint changes across instances (a transaction-scoped
    /// advisory lock): a hold reads every endpoint created before it, and an endpoint created
    /// after it lets the held responses go.
    private static func lockHeld(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(7107)", logger: logger)
    }

    public func fanOutAtAccept(_ fanOut: AcceptFanOut) { batcher.fanOutAtAccept(fanOut) }

    public func resumeIfPausedByMissingFlag(id: String, at: Date) async throws -> Bool {
        try await transaction { connection, logger in
            let resumed = try await Self.rows(
                EndpointTable.resumePausedByMissingFlag(.postgres) + " RETURNING id", [.text(id)], connection, logger)
            guard !resumed.isEmpty else { return false }
            try await Self.run(EndpointTable.release(.postgres), [.real(at.timeIntervalSince1970), .text(id)], connection, logger)
            return true
        }
    }

    public func hold(_ responses: [HeldResponse], owner: String) async throws {
        guard !responses.isEmpty else { return }
        try await transaction { connection, logger in
            try await Self.lockHeld(connection, logger)
            let endpoints = try await Self.rows(EndpointTable.selectAll, [], connection, logger).map { try EndpointTable.decode($0) }
            for held in responses {
                if endpoints.contains(where: { $0.takes(category: held.category, action: held.action) }) {
                    try await Self.run(EndpointTable.giveBack(.postgres), [.text(held.responseID), .text(owner)], connection, logger)
                } else {
                    try await Self.run(
                        EndpointTable.hold(.postgres), [.text(held.reason), .text(held.responseID), .text(owner)], connection, logger)
                }
            }
        }
    }

    public func updateEndpoint(id: String, _ change: EndpointChange, at: Date) async throws -> Endpoint? {
        try await transaction { connection, logger in
            try await Self.lockHeld(connection, logger)
            guard let endpoint = try await Self.lockedEndpoint(id, connection: connection, logger: logger) else { return nil }
            let changed = change.applied(to: endpoint)
            try await Self.run(EndpointTable.update(.postgres), EndpointTable.updateValues(changed), connection, logger)
            if change.releasesHeldDeliveries(of: endpoint) {
                try await Self.run(EndpointTable.release(.postgres), [.real(at.timeIntervalSince1970), .text(id)], connection, logger)
            }
            if change.paused != nil { try await Self.run(EndpointTable.clearPausedByMissingFlag(.postgres), [.text(id)], connection, logger) }
            try await Self.run(EndpointTable.releaseHeld(.postgres), [.real(at.timeIntervalSince1970)], connection, logger)
            return changed
        }
    }

    public func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws {
        try await transaction { connection, logger in
            for route in routes {
                let marked = try await Self.rows(
                    EndpointTable.markFannedOut(.postgres), [.text(route.responseID), .text(owner)], connection, logger)
                guard !marked.isEmpty else { continue }
                for endpointID in route.endpointIDs {
                    try await Self.run(
                        EndpointTable.insertDelivery(.postgres), [.text(route.responseID), .text(endpointID), .real(at.timeIntervalSince1970)],
                        connection, logger)
                }
            }
        }
    }

    public func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings
    ) async throws -> [ClaimedDelivery] {
        let time = now.timeIntervalSince1970
        return try await transaction { connection, logger in
            guard var endpoint = try await Self.lockedEndpoint(endpointID, connection: connection, logger: logger) else { return [] }
            let plan = EndpointGate.plan(endpoint, now: now, limit: limit, breaker: breaker)
            guard plan.limit > 0 else { return [] }
            let deliveries = try await Self.rows(
                EndpointTable.claim(.postgres, lock: "FOR UPDATE SKIP LOCKED"),
                [.text(owner), .real(time + lease), .text(endpointID), .real(time), .integer(plan.limit)], connection, logger
            ).map { try EndpointTable.decodeDelivery($0) }
                .sorted { ($0.nextAttemptAt, $0.responseID) < ($1.nextAttemptAt, $1.responseID) }
            guard !deliveries.isEmpty else { return [] }
            if let probeUntil = plan.probeUntil { endpoint.openUntil = probeUntil }
            if let next = plan.nextSlot(after: deliveries.count) { endpoint.nextSlotAt = next }
            try await Self.run(EndpointTable.update(.postgres), EndpointTable.updateValues(endpoint), connection, logger)
            let responses = try await Self.rows(
                ActionTable.selectByIDs(.postgres, count: deliveries.count), deliveries.map { .text($0.responseID) }, connection, logger
            ).map { try ActionTable.decode($0) }
            return EndpointTable.claimed(deliveries, responses: responses, plan: plan)
        }
    }

    /// One lock order for every transaction, so that two instances recording at once never wait on
    /// each other in a cycle: first the endpoints the batch may change (by id; a success on a
    /// healthy endpoint changes nothing of it and leaves its row unlocked, so the deliveries of one
    /// endpoint do not queue on it), then deliveries and responses by response id. A deadlock
    /// PostgreSQL still reports is retried.
    public func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?] {
        let order = attempts.indices.sorted {
            (attempts[$0].responseID, attempts[$0].endpointID) < (attempts[$1].responseID, attempts[$1].endpointID)
        }
        return try await transaction(retryingDeadlocks: 3) { connection, logger in
            var locked: Set<String> = []
            for id in Set(attempts.map(\.endpointID)).sorted() {
                let endpoint = try await Self.rows(EndpointTable.selectOne(.postgres), [.text(id)], connection, logger).first
                    .map { try EndpointTable.decode($0) }
                let failing = attempts.contains { $0.endpointID == id && $0.outcome != .delivered }
                if failing || endpoint.map(Self.isHealthy) != true {
                    _ = try await Self.lockedEndpoint(id, connection: connection, logger: logger)
                    locked.insert(id)
                }
            }
            var fates = [EndpointGate.Fate?](repeating: nil, count: attempts.count)
            for index in order {
                let attempt = attempts[index]
                fates[index] = try await Self.finish(
                    responseID: attempt.responseID, endpointID: attempt.endpointID, owner: owner, outcome: attempt.outcome,
                    breaker: breaker, at: attempt.at, locked: locked.contains(attempt.endpointID), connection: connection, logger: logger)
            }
            return fates
        }
    }

    private static func isHealthy(_ endpoint: Endpoint) -> Bool { endpoint.failureStreak == 0 && endpoint.openUntil == nil }

    private static func finish(
        responseID: String, endpointID: String, owner: String, outcome: DeliveryOutcome, breaker: BreakerSettings, at: Date,
        locked: Bool, connection: PostgresConnection, logger: Logger
    ) async throws -> EndpointGate.Fate? {
        let read = try await rows(EndpointTable.selectOne(.postgres), [.text(endpointID)], connection, logger).first
            .map { try EndpointTable.decode($0) }
        // Unlocked, the endpoint was healthy and this a success; should another instance have made
        // it fail meanwhile, it is locked now (rare; a deadlock then is retried).
        let settled = locked || (read.map(isHealthy) == true && outcome == .delivered)
        guard let endpoint = settled ? read : try await lockedEndpoint(endpointID, connection: connection, logger: logger),
            let row = try await rows(
                EndpointTable.selectDelivery(.postgres, lock: "FOR UPDATE"), [.text(responseID), .text(endpointID)], connection, logger
            ).first,
            try row.optionalString("lease_owner") == owner,
            case let delivery = try EndpointTable.decodeDelivery(row), delivery.status == .pending
        else { return nil }
        let (changed, fate) = EndpointGate.finish(endpoint, outcome: outcome, breaker: breaker, now: at)
        try await run(
            EndpointTable.finishDelivery(.postgres), EndpointTable.finishValues(delivery, fate: fate, error: outcome.error, now: at),
            connection, logger)
        if changed != endpoint {
            try await run(EndpointTable.update(.postgres), EndpointTable.updateValues(changed), connection, logger)
        }
        if endpoint.openUntil != nil && changed.openUntil == nil {
            try await run(EndpointTable.release(.postgres), [.real(at.timeIntervalSince1970), .text(endpointID)], connection, logger)
        }
        // The response's row is locked too, so two deliveries of one response finishing at
        // once write their summaries one after the other, the second seeing the first.
        _ = try await rows(
            "SELECT id FROM action_responses WHERE id = $1 FOR UPDATE", [.text(responseID)], connection, logger)
        let all = try await rows(EndpointTable.selectDeliveries(.postgres), [.text(responseID)], connection, logger)
            .map { try EndpointTable.decodeDelivery($0) }
        if let summary = EndpointGate.aggregate(all) {
            try await run(EndpointTable.summarize(.postgres), EndpointTable.summaryValues(summary, id: responseID), connection, logger)
        }
        return fate
    }

    public func endpointDeliveries(responseID: String) async throws -> [EndpointDelivery] {
        do {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: EndpointTable.selectDeliveries(.postgres), binds: try Self.sqlBindings([.text(responseID)])),
                logger: logger)
            var deliveries: [EndpointDelivery] = []
            for try await row in rows {
                deliveries.append(try EndpointTable.decodeDelivery(PostgresActionRow(columns: row.makeRandomAccess())))
            }
            return deliveries
        } catch {
            throw Self.readable(error)
        }
    }

    /// Runs `body` in one transaction; one that PostgreSQL ends as a deadlock victim (SQLSTATE
    /// 40P01) is run again, up to `retryingDeadlocks` more times.
    private func transaction<T: Sendable>(
        retryingDeadlocks retries: Int = 0, _ body: @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = self.logger
        var left = retries
        while true {
            do {
                return try await client.withTransaction(logger: logger) { connection in try await body(connection, logger) }
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40P01" && left > 0 {
                left -= 1
                logger.debug("a deadlock was resolved by PostgreSQL; the transaction runs again")
            } catch {
                throw Self.readable(error)
            }
        }
    }

    private static func lockedEndpoint(_ id: String, connection: PostgresConnection, logger: Logger) async throws -> Endpoint? {
        try await rows(EndpointTable.selectOne(.postgres, lock: "FOR UPDATE"), [.text(id)], connection, logger).first
            .map { try EndpointTable.decode($0) }
    }

    private static func rows(
        _ sql: String, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [PostgresActionRow] {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try sqlBindings(values)), logger: logger)
        var all: [PostgresActionRow] = []
        for try await row in rows { all.append(PostgresActionRow(columns: row.makeRandomAccess())) }
        return all
    }

    private static func run(_ sql: String, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try sqlBindings(values)), logger: logger)
    }
}
