import ActionableStore
import Logging
import PostgresNIO

/// The text of one of the hot statements, and the short name it is prepared under.
protocol StatementText {
    /// The name it is prepared under on each connection.
    static var name: String { get }
    static var sql: String { get }
}

/// A hot statement prepared once per connection and executed by name after: PostgreSQL parses
/// and plans it once per connection (and keeps a generic plan once it is as good as a fresh one),
/// not on every call — planning the accept's statement was about 0.3 ms of a 0.8 ms batch of five
/// (`EXPLAIN ANALYZE`, warm). postgres-nio prepares it on a connection's first use, again on a new
/// connection after one is dropped.
struct Prepared<Text: StatementText>: PostgresPreparedStatement {
    static var name: String { Text.name }
    static var sql: String { Text.sql }

    var bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// The accept's one statement (``PostgresAcceptBatcher``).
enum AcceptText: StatementText {
    static let name = "actionable_accept"
    static let sql = PostgresAcceptBatcher.acceptSQL
}

/// The claim of one endpoint's deliveries (`QueueTable/deliveries`).
enum ClaimDeliveriesText: StatementText {
    static let name = "actionable_claim_deliveries"
    static let sql = PostgresActionStore.claimDeliveriesSQL
}

/// The claim of responses for the in-process handlers (`QueueTable/responses`).
enum ClaimResponsesText: StatementText {
    static let name = "actionable_claim_responses"
    static let sql = PostgresActionStore.claimResponsesSQL
}

/// A batch of successes on healthy endpoints.
enum DeliverBatchText: StatementText {
    static let name = "actionable_deliver_batch"
    static let sql = PostgresActionStore.deliverBatchSQL
}

/// One endpoint's row.
enum SelectEndpointText: StatementText {
    static let name = "actionable_select_endpoint"
    static let sql = EndpointTable.selectOne(.postgres)
}

extension PostgresConnection {
    /// The rows of `Text` with `values` as its parameters, prepared on this connection once.
    func prepared<Text: StatementText>(_ text: Text.Type, _ values: [SQLValue], logger: Logger) async throws -> [PostgresRow] {
        let rows = try await execute(Prepared<Text>(bindings: try PostgresActionStore.sqlBindings(values)), logger: logger)
        var all: [PostgresRow] = []
        for try await row in rows { all.append(row) }
        return all
    }
}

extension DeadlineClient {
    /// The rows of `Text` with `bindings`, on a pooled connection, within the deadline.
    func prepared<Text: StatementText>(_ text: Text.Type, _ bindings: PostgresBindings, logger: Logger) async throws -> [PostgresRow] {
        let pool = self.pool
        return try await Self.within(deadline, Text.sql) {
            let rows = try await pool.execute(Prepared<Text>(bindings: bindings), logger: logger)
            var all: [PostgresRow] = []
            for try await row in rows { all.append(row) }
            return all
        }
    }
}
