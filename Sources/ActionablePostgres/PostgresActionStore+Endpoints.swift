public import ActionableStore
public import Foundation
import PostgresNIO

/// Endpoints and their deliveries on PostgreSQL: a claim or an outcome that may move its
/// endpoint (a probe, a rate slot, a failure) locks the endpoint's row (`FOR UPDATE`) for its
/// transaction, so instances share one breaker, one failure streak and one rate; claims and
/// successes on a healthy endpoint without a rate limit read it without a lock. Deliveries are
/// claimed with `FOR UPDATE SKIP LOCKED` under a lease.
extension PostgresActionStore {
    /// One statement: the endpoints and whether each has a due delivery (an idle poll claims
    /// nothing, so it commits nothing more).
    public func polledEndpoints(at now: Date) async throws -> [PolledEndpoint] {
        do {
            let rows = try await client.query(
                PostgresQuery(unsafeSQL: Self.selectAllWithDueSQL, binds: try Self.sqlBindings([.real(now.timeIntervalSince1970)])),
                logger: logger)
            var polled: [PolledEndpoint] = []
            for try await row in rows {
                let columns = PostgresActionRow(columns: row.makeRandomAccess())
                polled.append(PolledEndpoint(endpoint: try EndpointTable.decode(columns), hasDueDeliveries: try columns.int("due") != 0))
            }
            return polled
        } catch {
            throw Self.readable(error)
        }
    }
    private static let selectAllWithDueSQL = EndpointTable.selectAllWithDue(.postgres)

    public func endpoint(id: String) async throws -> Endpoint? {
        do {
            let rows = try await client.query(PostgresQuery(unsafeSQL: Self.selectOneSQL, binds: try Self.sqlBindings([.text(id)])), logger: logger)
            for try await row in rows { return try EndpointTable.decode(PostgresActionRow(columns: row.makeRandomAccess())) }
            return nil
        } catch {
            throw Self.readable(error)
        }
    }
    private static let selectOneSQL = EndpointTable.selectOne(.postgres)

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
            try await self.notifyOutbox(connection, logger)
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
            try await self.notifyOutbox(connection, logger)
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
            try await self.notifyOutbox(connection, logger)
            return changed
        }
    }

    public func fanOut(_ routes: [FanOut], owner: String, at: Date) async throws {
        try await transaction { connection, logger in
            var handed = false
            for route in routes {
                let marked = try await Self.rows(
                    EndpointTable.markFannedOut(.postgres), [.text(route.responseID), .text(owner)], connection, logger)
                guard !marked.isEmpty else { continue }
                handed = handed || !route.endpointIDs.isEmpty
                for endpointID in route.endpointIDs {
                    try await Self.run(
                        EndpointTable.insertDelivery(.postgres), [.text(route.responseID), .text(endpointID), .real(at.timeIntervalSince1970)],
                        connection, logger)
                }
            }
            if handed { try await self.notifyOutbox(connection, logger) }
        }
    }

    public func claimDeliveries(
        endpointID: String, now: Date, limit: Int, lease: TimeInterval, owner: String, breaker: BreakerSettings,
        if claimable: @escaping @Sendable (Endpoint) -> Bool
    ) async throws -> EndpointClaim {
        let time = now.timeIntervalSince1970
        return try await transaction(relaxed: true) { connection, logger in
            // Read without a lock: a healthy endpoint without a rate limit is not written by a
            // claim, so the fleet's claims to it run side by side (each takes its own deliveries,
            // SKIP LOCKED). Only a claim that may move the endpoint — a probe of an open breaker,
            // a rate limit's next slot — locks its row, and plans again from the locked read.
            guard
                let unlocked = try await Self.preparedRows(SelectEndpointText.self, [.text(endpointID)], connection, logger).first
                    .map({ try EndpointTable.decode($0) })
            else { return EndpointClaim(endpoint: nil, deliveries: []) }
            guard claimable(unlocked) else { return EndpointClaim(endpoint: unlocked, deliveries: []) }
            let movesEndpoint = unlocked.openUntil != nil || (unlocked.rateLimit ?? 0) > 0
            guard
                var endpoint = movesEndpoint
                    ? try await Self.lockedEndpoint(endpointID, connection: connection, logger: logger) : unlocked
            else { return EndpointClaim(endpoint: nil, deliveries: []) }
            let none = EndpointClaim(endpoint: endpoint, deliveries: [])
            guard endpoint == unlocked || claimable(endpoint) else { return none }
            let plan = EndpointGate.plan(endpoint, now: now, limit: limit, breaker: breaker)
            guard plan.limit > 0 else { return none }
            let deliveries = try await Self.preparedRows(
                ClaimDeliveriesText.self, [.text(owner), .real(time + lease), .real(time), .integer(plan.limit), .text(endpointID)], connection,
                logger
            ).map { try EndpointTable.decodeDelivery($0) }
                .sorted { ($0.nextAttemptAt, $0.responseID) < ($1.nextAttemptAt, $1.responseID) }
            guard !deliveries.isEmpty else { return none }
            let read = endpoint
            if let probeUntil = plan.probeUntil { endpoint.openUntil = probeUntil }
            if let next = plan.nextSlot(after: deliveries.count) { endpoint.nextSlotAt = next }
            // Written only when the claim moved it (a probe let through, a rate limit's next slot).
            if endpoint != read { try await Self.run(EndpointTable.update(.postgres), EndpointTable.updateValues(endpoint), connection, logger) }
            let responses = try await Self.rows(
                ActionTable.selectByIDs(.postgres, count: deliveries.count), deliveries.map { .text($0.responseID) }, connection, logger
            ).map { try ActionTable.decode($0) }
            return EndpointClaim(endpoint: endpoint, deliveries: EndpointTable.claimed(deliveries, responses: responses, plan: plan))
        }
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
    ///
    /// A `relaxed` transaction commits without waiting for its WAL to reach the disk
    /// (`synchronous_commit = off` for it alone): the outbox's claims and outcomes, as on SQLite.
    /// A crash may forget the last of them — a lease then runs out, an outcome is attempted again
    /// under the same `webhook-id` — never an accepted response, whose commit stays durable.
    func transaction<T: Sendable>(
        retryingDeadlocks retries: Int = 0, relaxed: Bool = false, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        let logger = self.logger
        var left = retries
        while true {
            do {
                return try await client.withTransaction(logger: logger) { connection in
                    if relaxed { try await connection.query("SET LOCAL synchronous_commit TO OFF", logger: logger) }
                    return try await body(connection, logger)
                }
            } catch  where Self.sqlState(of: error) == "40P01" && left > 0 {
                left -= 1
                logger.debug("a deadlock was resolved by PostgreSQL; the transaction runs again")
            } catch {
                throw Self.readable(error)
            }
        }
    }

    static func lockedEndpoint(_ id: String, connection: PostgresConnection, logger: Logger) async throws -> Endpoint? {
        try await rows(EndpointTable.selectOne(.postgres, lock: "FOR UPDATE"), [.text(id)], connection, logger).first
            .map { try EndpointTable.decode($0) }
    }

    static func rows(
        _ sql: String, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [PostgresActionRow] {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try sqlBindings(values)), logger: logger)
        var all: [PostgresActionRow] = []
        for try await row in rows { all.append(PostgresActionRow(columns: row.makeRandomAccess())) }
        return all
    }

    /// The rows of the prepared statement `text` (``Prepared``) with `values` as its parameters.
    static func preparedRows<Text: StatementText>(
        _ text: Text.Type, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [PostgresActionRow] {
        try await connection.prepared(text, values, logger: logger).map { PostgresActionRow(columns: $0.makeRandomAccess()) }
    }

    static func run(_ sql: String, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try sqlBindings(values)), logger: logger)
    }
}

extension PostgresActionStore {
    public func recordSignOut(session: String, until: Date, now: Date) async throws {
        try await transaction { connection, logger in
            try await Self.run(AdminSignOutTable.prune(.postgres), [.real(now.timeIntervalSince1970)], connection, logger)
            try await Self.run(AdminSignOutTable.insert(.postgres), [.text(session), .real(until.timeIntervalSince1970)], connection, logger)
        }
    }

    public func isSignedOut(session: String) async throws -> Bool {
        try await transaction { connection, logger in
            !(try await Self.rows(AdminSignOutTable.select(.postgres), [.text(session)], connection, logger)).isEmpty
        }
    }
}
