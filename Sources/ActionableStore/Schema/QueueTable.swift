/// One of the outbox's queues as its table holds it: rows due at `next_attempt_at`, pending in a
/// state column, claimed under a lease (`lease_owner`, `lease_until`) that counts `attempts` and
/// `expired_leases`. The three queues — responses waiting for an in-process handler, deliveries
/// to endpoints, copies of notifications to devices — are claimed and finished by the same two
/// statements, built from this description; a driver runs them its own way (PostgreSQL adds
/// `FOR UPDATE SKIP LOCKED` to the claim's inner select, SQLite finds the rows by `rowid`).
package struct QueueTable: Sendable, Hashable {
    /// The table.
    package var name: String
    /// The columns that name one row.
    package var key: [String]
    /// The column that says `pending` while a row is queued.
    package var state: String
    /// The columns a claim is scoped to, each equal to a parameter (one endpoint's deliveries, one
    /// platform's copies), in parameter order.
    package var scope: [String]
    /// What else a due row meets, in SQL (responses handed to endpoints are not the handlers').
    package var condition: String?
    /// The claim's order after `next_attempt_at`.
    package var order: [String]
    /// What a claim returns of each row.
    package var returning: String

    package init(
        name: String, key: [String], state: String, scope: [String] = [], condition: String? = nil, order: [String], returning: String
    ) {
        self.name = name
        self.key = key
        self.state = state
        self.scope = scope
        self.condition = condition
        self.order = order
        self.returning = returning
    }

    /// Responses waiting for an in-process handler (or to be handed to endpoints).
    package static let responses = QueueTable(
        name: "action_responses", key: ["id"], state: "status", condition: "fanned_out = 0", order: [], returning: ActionTable.columns)

    /// Deliveries of responses to endpoints, claimed per endpoint.
    package static let deliveries = QueueTable(
        name: "endpoint_deliveries", key: ["response_id", "endpoint_id"], state: "status", scope: ["endpoint_id"],
        order: ["response_id"], returning: EndpointTable.deliveryColumns)

    /// Copies of recorded notifications to devices, claimed per platform.
    package static let sends = QueueTable(
        name: "notification_sends", key: ["notification_id", "token"], state: "state", scope: ["platform"],
        order: ["notification_id", "token"], returning: "notification_id, token, platform, environment, attempts, expired_leases")

    /// Leases up to a limit of the due rows, oldest due first; parameters: owner, lease until, now,
    /// limit, then one per ``scope`` column. `lock` goes after the inner select (`FOR UPDATE SKIP
    /// LOCKED`). A claim that finds nothing writes nothing.
    package func claim(_ dialect: SQLDialect, lock: String = "") -> String {
        let p = (1...(4 + scope.count)).map(dialect.parameter)
        let scoped = scope.enumerated().map { "\($1) = \(p[4 + $0])" }
        let due =
            scoped
            + [
                "\(state) = 'pending'", condition, "next_attempt_at <= \(p[2])", "(lease_until IS NULL OR lease_until < \(p[2]))",
            ].compactMap { $0 }
        // SQLite finds a row fastest by its rowid, and only the rowid may be named outside the
        // select: with the scope there too, it scans the scope's whole index (every delivered row
        // of the endpoint) for the rowids instead of looking each up. PostgreSQL finds a row by
        // its key.
        let row = dialect.rowIdentifier ?? (key.count == 1 ? key[0] : "(\(key.joined(separator: ", ")))")
        let select = dialect.rowIdentifier ?? key.joined(separator: ", ")
        let outer = dialect.rowIdentifier == nil ? scoped : []
        return """
            UPDATE \(name) SET lease_owner = \(p[0]), lease_until = \(p[1]), attempts = attempts + 1, \(ActionTable.countExpiredLease)
            WHERE \((outer + ["\(row) IN (SELECT \(select) FROM \(name) WHERE \(due.joined(separator: " AND "))"]).joined(separator: " AND "))
                ORDER BY \((["next_attempt_at"] + order).joined(separator: ", ")) LIMIT \(p[3]) \(lock))
            RETURNING \(returning)
            """
    }

    /// Finishes a row its owner still holds, pending: `set` (assignments over parameters 1…
    /// `setting`) and the lease freed; the parameters after `set`'s are the key's, then the owner.
    /// Applies to nothing when the lease was lost (another claim took the row over).
    package func finish(_ dialect: SQLDialect, set: String, setting: Int) -> String {
        let keys = key.enumerated().map { "\($1) = \(dialect.parameter(setting + 1 + $0))" }
        return """
            UPDATE \(name) SET \(set), lease_owner = NULL, lease_until = NULL
            WHERE \((keys + ["lease_owner = \(dialect.parameter(setting + key.count + 1))", "\(state) = 'pending'"]).joined(separator: " AND "))
            """
    }
}
