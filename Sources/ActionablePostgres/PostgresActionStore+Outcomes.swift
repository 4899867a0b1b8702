public import ActionableStore
import Foundation
import PostgresNIO

/// The outcomes of attempts at endpoints' deliveries on PostgreSQL: a batch in one transaction,
/// the endpoints it may move locked first (by id), then its deliveries; a batch of successes on
/// healthy endpoints in one statement.
extension PostgresActionStore {
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

    /// `EndpointTable/finishValues(_:fate:error:now:)`'s values, in order.
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
}

/// A `SQLValue` as JSON: text, a number exactly as Swift prints it (which reads back the same
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
