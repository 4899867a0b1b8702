import ActionableCore
public import Foundation

/// Which stored responses an operator means: by state, category and time received.
public struct ResponseFilter: Hashable, Sendable {
    public var status: ResponseStatus?
    public var category: String?
    /// Received at or after.
    public var since: Date?
    /// Received before.
    public var until: Date?

    public init(status: ResponseStatus? = nil, category: String? = nil, since: Date? = nil, until: Date? = nil) {
        self.status = status
        self.category = category
        self.since = since
        self.until = until
    }
}

/// Where a page of deliveries ends: the last item's time and id. Pages are newest first, so
/// responses received after the first page was read never move items between later pages.
public struct ResponseCursor: Hashable, Sendable {
    public var receivedAt: Date
    public var id: String

    public init(receivedAt: Date, id: String) {
        self.receivedAt = receivedAt
        self.id = id
    }

    /// The cursor as an opaque URL-safe string.
    public var token: String {
        let text = "\(receivedAt.timeIntervalSince1970.bitPattern):\(id)"
        return Base64URL.encode(Data(text.utf8))
    }

    /// The cursor of `token`; nil if it is not one.
    public init?(token: String) {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"), let bits = UInt64(text[..<colon])
        else { return nil }
        let id = String(text[text.index(after: colon)...])
        let time = Double(bitPattern: bits)
        guard !id.isEmpty, time.isFinite else { return nil }
        self.init(receivedAt: Date(timeIntervalSince1970: time), id: id)
    }
}

/// One page of deliveries, newest first.
public struct ResponsePage: Hashable, Sendable {
    public var items: [AcceptedResponse]
    /// Where the next page starts; nil on the last page.
    public var next: ResponseCursor?

    public init(items: [AcceptedResponse], next: ResponseCursor?) {
        self.items = items
        self.next = next
    }
}

/// What queueing one response again did.
public enum RequeueResult: Hashable, Sendable {
    /// Queued: pending again, due at once, with a fresh retry window and the same id.
    case queued
    /// It is pending already (being delivered, or waiting for its next try): nothing changed.
    case alreadyPending
    /// No response has that id.
    case notFound
}

/// The SQL of the operator's queries, for every SQL driver.
extension ActionTable {
    /// A value bound to a statement's parameter.
    package typealias Value = SQLValue

    /// The `WHERE` conditions of `filter` and their values; parameters are numbered from `first`.
    static func conditions(_ filter: ResponseFilter, _ dialect: SQLDialect, first: Int) -> (String, [Value]) {
        var conditions: [String] = []
        var values: [Value] = []
        func add(_ condition: (String) -> String, _ value: Value) {
            values.append(value)
            conditions.append(condition(dialect.parameter(first + values.count - 1)))
        }
        if let status = filter.status { conditions.append(ResponseStates.condition(status)) }
        if let category = filter.category { add({ "category = \($0)" }, .text(category)) }
        if let since = filter.since { add({ "received_at >= \($0)" }, .real(since.timeIntervalSince1970)) }
        if let until = filter.until { add({ "received_at < \($0)" }, .real(until.timeIntervalSince1970)) }
        return (conditions.isEmpty ? "TRUE" : conditions.joined(separator: " AND "), values)
    }

    /// A page of `filter`, newest first, after `cursor`; `limit + 1` rows are asked for, so the
    /// driver knows whether another page follows.
    package static func page(
        _ filter: ResponseFilter, after cursor: ResponseCursor?, limit: Int, _ dialect: SQLDialect
    )
        -> (sql: String, values: [Value])
    {
        var (conditions, values) = Self.conditions(filter, dialect, first: 1)
        if let cursor {
            let time = dialect.parameter(values.count + 1)
            let id = dialect.parameter(values.count + 2)
            conditions += " AND (received_at < \(time) OR (received_at = \(time) AND id < \(id)))"
            values += [.real(cursor.receivedAt.timeIntervalSince1970), .text(cursor.id)]
        }
        return (
            "SELECT \(columns) FROM \(ResponseStates.view) WHERE \(conditions) ORDER BY received_at DESC, id DESC LIMIT \(limit + 1)",
            values
        )
    }

    /// What a re-queue writes to a response's own row: pending again, or still routed to its
    /// endpoints (whose deliveries are queued again).
    static func requeueSet(_ at: String) -> String {
        """
        status = CASE WHEN fanned_out = 1 THEN 'routed' ELSE 'pending' END, attempts = 0, next_attempt_at = \(at),
            queued_at = \(at), lease_owner = NULL, lease_until = NULL, delivered_at = NULL, expired_leases = 0
        """
    }

    /// Queues one response again unless it is pending, as operators see it; parameters: at, id.
    /// Run before ``requeueDeliveries(count:_:)`` for its id, in the same transaction: a routed
    /// response's state is its deliveries', which those statements queue again.
    package static func requeueOne(_ dialect: SQLDialect) -> String {
        let at = dialect.parameter(1)
        return """
            UPDATE action_responses SET \(requeueSet(at))
            WHERE id IN (SELECT id FROM \(ResponseStates.view) WHERE id = \(dialect.parameter(2)) AND \(ResponseStates.notPending))
            """
    }

    /// The ids of the responses of `filter` that are not pending, as operators see them, in id
    /// order; `lock` goes at the end (PostgreSQL: `FOR UPDATE`, so that what is then queued again
    /// is what was read, and two re-queues at once lock in one order).
    package static func requeueable(_ filter: ResponseFilter, lock: String = "", _ dialect: SQLDialect) -> (sql: String, values: [Value]) {
        let (conditions, values) = Self.conditions(filter, dialect, first: 1)
        return (
            """
            SELECT id FROM action_responses
            WHERE id IN (SELECT id FROM \(ResponseStates.view) WHERE \(ResponseStates.notPending) AND \(conditions))
            ORDER BY id \(lock)
            """,
            values
        )
    }

    /// How many ids one re-queue statement takes (parameters 2…).
    package static let requeueChunk = 500

    /// Queues again `count` responses read by ``requeueable(_:lock:_:)`` in the same transaction;
    /// parameters: at, then the ids. Run before ``requeueDeliveries(count:_:)`` for them.
    package static func requeue(count: Int, _ dialect: SQLDialect) -> String {
        let ids = (2..<(2 + max(1, count))).map(dialect.parameter).joined(separator: ", ")
        return "UPDATE action_responses SET \(requeueSet(dialect.parameter(1))) WHERE id IN (\(ids))"
    }

    /// Queues again the endpoint deliveries of `count` responses just queued again (parameters:
    /// at, then the ids), in two statements run in order: first, where a response has no dead
    /// delivery, its delivered ones (a delivered response is replayed to every endpoint); then the
    /// dead ones. One statement could not do both: SQLite reads a row's siblings as the statement
    /// has already changed them, so a dead delivery queued first made its delivered sibling look
    /// replayable.
    package static func requeueDeliveries(count: Int, _ dialect: SQLDialect) -> [String] {
        let at = dialect.parameter(1)
        let ids = (2..<(2 + max(1, count))).map(dialect.parameter).joined(separator: ", ")
        let reset = """
            status = 'pending', attempts = 0, next_attempt_at = \(at), queued_at = \(at), lease_owner = NULL, lease_until = NULL,
                delivered_at = NULL, last_error = NULL, expired_leases = 0
            """
        return [
            """
            UPDATE endpoint_deliveries SET \(reset)
            WHERE status = 'delivered' AND response_id IN (\(ids)) AND NOT EXISTS (
                SELECT 1 FROM endpoint_deliveries dead WHERE dead.response_id = endpoint_deliveries.response_id AND dead.status = 'dead')
            """,
            "UPDATE endpoint_deliveries SET \(reset) WHERE status = 'dead' AND response_id IN (\(ids))",
        ]
    }

    /// The status of one response; parameter 1 is the id.
    package static func statusOf(_ dialect: SQLDialect) -> String {
        "SELECT status FROM \(ResponseStates.view) WHERE id = \(dialect.parameter(1))"
    }

}
