import ActionableStore
import Foundation
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

    /// A batch of outcomes in a few statements, whatever its size: the deliveries are read and
    /// written with one statement each (the rows travel as one JSON parameter), not six round
    /// trips per attempt; the responses' rows are not written (`ResponseStates`).
    ///
    /// One lock order for every transaction, so that two instances recording at once never wait on
    /// each other in a cycle: first the endpoints the batch may change (by id; successes on a
    /// healthy endpoint change nothing of it and leave its row unlocked, so the deliveries of one
    /// endpoint do not queue on it), then deliveries by response id. A deadlock
    /// PostgreSQL still reports is retried.
    public func finishDeliveries(_ attempts: [FinishedAttempt], owner: String, breaker: BreakerSettings) async throws -> [EndpointGate.Fate?] {
        guard !attempts.isEmpty else { return [] }
        // In response order, each delivery once: should a lease have run out and this owner
        // claimed the delivery again before the first outcome was written, the first stands (as
        // one by one, where the second found it no longer pending).
        var seen: Set<DeliveryKey> = []
        let order = attempts.indices.sorted {
            (attempts[$0].responseID, attempts[$0].endpointID) < (attempts[$1].responseID, attempts[$1].endpointID)
        }.filter { seen.insert(DeliveryKey(attempts[$0].responseID, attempts[$0].endpointID)).inserted }
        return try await transaction(retryingDeadlocks: 3, relaxed: true) { connection, logger in
            // The endpoints, each moved by its outcomes in turn.
            var endpoints: [String: Endpoint] = [:]
            var locked: Set<String> = []
            for id in Set(attempts.map(\.endpointID)).sorted() {
                let read = try await Self.preparedRows(SelectEndpointText.self, [.text(id)], connection, logger).first
                    .map { try EndpointTable.decode($0) }
                let failing = attempts.contains { $0.endpointID == id && $0.outcome != .delivered }
                if failing || read.map(Self.isHealthy) != true {
                    endpoints[id] = try await Self.lockedEndpoint(id, connection: connection, logger: logger)
                    locked.insert(id)
                } else {
                    endpoints[id] = read
                }
            }
            var fates = [EndpointGate.Fate?](repeating: nil, count: attempts.count)
            if locked.isEmpty && attempts.allSatisfy({ $0.outcome == .delivered }) {
                // Every outcome a success and every endpoint healthy (the busy case): no fate depends
                // on anything but the lease, so the batch is written by one statement that checks
                // each lease itself and says which it finished — no read of the deliveries first.
                let rows = order.map {
                    [SQLValue.text(attempts[$0].responseID), .text(attempts[$0].endpointID), .real(attempts[$0].at.timeIntervalSince1970)]
                }
                var finished: Set<DeliveryKey> = []
                for row in try await Self.rows(
                    Self.deliverBatchSQL, [.text(try Self.json(rows, names: ["r", "e", "at"])), .text(owner)], connection, logger)
                {
                    finished.insert(DeliveryKey(try row.string("response_id"), try row.string("endpoint_id")))
                }
                for index in order where finished.contains(DeliveryKey(attempts[index].responseID, attempts[index].endpointID)) {
                    fates[index] = .delivered
                }
                guard !finished.isEmpty else { return fates }
            } else {
                let before = endpoints
                // The batch's deliveries, locked in response order.
                let keys = order.map { [SQLValue.text(attempts[$0].responseID), .text(attempts[$0].endpointID)] }
                var deliveries: [DeliveryKey: (EndpointDelivery, owner: String?)] = [:]
                for row in try await Self.rows(Self.lockBatchSQL, [.text(try Self.json(keys, names: ["r", "e"]))], connection, logger) {
                    let delivery = try EndpointTable.decodeDelivery(row)
                    deliveries[DeliveryKey(delivery.responseID, delivery.endpointID)] = (delivery, try row.optionalString("lease_owner"))
                }
                var writes: [[SQLValue]] = []
                var releases: [(endpointID: String, at: Date)] = []
                for index in order {
                    let attempt = attempts[index]
                    guard let (delivery, leaseOwner) = deliveries[DeliveryKey(attempt.responseID, attempt.endpointID)],
                        leaseOwner == owner, delivery.status == .pending, let endpoint = endpoints[attempt.endpointID]
                    else { continue }
                    let (changed, fate) = EndpointGate.finish(endpoint, outcome: attempt.outcome, breaker: breaker, now: attempt.at)
                    if endpoint.openUntil != nil && changed.openUntil == nil { releases.append((attempt.endpointID, attempt.at)) }
                    endpoints[attempt.endpointID] = changed
                    writes.append(EndpointTable.finishValues(delivery, fate: fate, error: attempt.outcome.error, now: attempt.at))
                    fates[index] = fate
                }
                guard !writes.isEmpty else { return fates }
                for id in locked.sorted() where endpoints[id] != before[id] {
                    if let changed = endpoints[id] {
                        try await Self.run(EndpointTable.update(.postgres), EndpointTable.updateValues(changed), connection, logger)
                    }
                }
                // A breaker that closed lets the endpoint's held deliveries go (before this batch's own
                // outcomes are written, which keep theirs).
                for release in releases {
                    try await Self.run(
                        EndpointTable.release(.postgres), [.real(release.at.timeIntervalSince1970), .text(release.endpointID)], connection, logger)
                }
                try await Self.run(
                    Self.finishBatchSQL, [.text(try Self.json(writes, names: Self.finishBatchNames))], connection, logger)
            }
            // Unlocked, those endpoints were healthy; should another instance have made one fail
            // meanwhile, it is locked now and these successes move it (rare).
            for id in Set(attempts.map(\.endpointID)).subtracting(locked).sorted() {
                let now = try await Self.preparedRows(SelectEndpointText.self, [.text(id)], connection, logger).first
                    .map { try EndpointTable.decode($0) }
                guard let now, !Self.isHealthy(now), var endpoint = try await Self.lockedEndpoint(id, connection: connection, logger: logger)
                else { continue }
                let start = endpoint
                var closedAt: Date?
                for index in order where attempts[index].endpointID == id && fates[index] != nil {
                    let (changed, _) = EndpointGate.finish(endpoint, outcome: attempts[index].outcome, breaker: breaker, now: attempts[index].at)
                    if endpoint.openUntil != nil && changed.openUntil == nil { closedAt = attempts[index].at }
                    endpoint = changed
                }
                if endpoint != start { try await Self.run(EndpointTable.update(.postgres), EndpointTable.updateValues(endpoint), connection, logger) }
                if let closedAt {
                    try await Self.run(EndpointTable.release(.postgres), [.real(closedAt.timeIntervalSince1970), .text(id)], connection, logger)
                }
            }
            // The responses' rows are not written: operators read their state from their deliveries.
            return fates
        }
    }

    private struct DeliveryKey: Hashable {
        var responseID: String
        var endpointID: String
        init(_ responseID: String, _ endpointID: String) {
            self.responseID = responseID
            self.endpointID = endpointID
        }
    }

    /// The deliveries of a batch (`$1`: `[{"r": response id, "e": endpoint id}]`), locked in response order.
    private static let lockBatchSQL = """
        SELECT \(EndpointTable.deliveryColumns) FROM endpoint_deliveries
        WHERE (response_id, endpoint_id) IN (SELECT v.r, v.e FROM jsonb_to_recordset($1::jsonb) AS v(r TEXT, e TEXT))
        ORDER BY response_id, endpoint_id FOR UPDATE
        """

    /// A batch of successes on healthy endpoints in one statement: each delivery `$2` still holds,
    /// pending, is delivered at its time (`$1`: rows of response id `r`, endpoint id `e`, `at`);
    /// returns the ones it finished.
    static let deliverBatchSQL = """
        UPDATE endpoint_deliveries AS d SET status = 'delivered', delivered_at = v.at, last_error = NULL,
            lease_owner = NULL, lease_until = NULL
        FROM jsonb_to_recordset($1::jsonb) AS v(r TEXT, e TEXT, at DOUBLE PRECISION)
        WHERE d.response_id = v.r AND d.endpoint_id = v.e AND d.lease_owner = $2 AND d.status = 'pending'
        RETURNING d.response_id, d.endpoint_id
        """

    /// ``EndpointTable/finishValues(_:fate:error:now:)``'s values, in order.
    private static let finishBatchNames = ["status", "attempts", "next", "error", "delivered", "r", "e"]

    /// Every outcome of a batch in one statement (`$1`: the rows of ``finishBatchNames``).
    private static let finishBatchSQL = """
        UPDATE endpoint_deliveries AS d SET status = v.status, attempts = v.attempts, next_attempt_at = v.next, last_error = v.error,
            delivered_at = v.delivered, lease_owner = NULL, lease_until = NULL
        FROM jsonb_to_recordset($1::jsonb)
            AS v(status TEXT, attempts INTEGER, next DOUBLE PRECISION, error TEXT, delivered DOUBLE PRECISION, r TEXT, e TEXT)
        WHERE d.response_id = v.r AND d.endpoint_id = v.e
        """

    /// `rows` as a JSON array of objects with `names` for keys: one parameter for a whole batch.
    static func json(_ rows: [[SQLValue]], names: [String]) throws -> String {
        let objects = rows.map { row in
            Dictionary(uniqueKeysWithValues: zip(names, row.map(JSONField.init)))
        }
        return String(decoding: try JSONEncoder().encode(objects), as: UTF8.self)
    }

    private static func isHealthy(_ endpoint: Endpoint) -> Bool { endpoint.failureStreak == 0 && endpoint.openUntil == nil }

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

    /// The rows of the prepared statement `text` (``Prepared``) with `values` as its parameters.
    private static func preparedRows<Text: StatementText>(
        _ text: Text.Type, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> [PostgresActionRow] {
        try await connection.prepared(text, values, logger: logger).map { PostgresActionRow(columns: $0.makeRandomAccess()) }
    }

    private static func run(_ sql: String, _ values: [SQLValue], _ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try sqlBindings(values)), logger: logger)
    }
}

/// A ``SQLValue`` as JSON: text, a number exactly as Swift prints it (which reads back the same
/// double), or null.
private struct JSONField: Encodable {
    let value: SQLValue
    init(_ value: SQLValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .text(let text): try container.encode(text)
        case .real(let number): try container.encode(number)
        case .integer(let number): try container.encode(number)
        case .null: try container.encodeNil()
        }
    }
}
