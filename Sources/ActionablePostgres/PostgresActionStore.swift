import ActionableCore
public import ActionableStore
public import Foundation
public import Logging
import NIOSSL
import PostgresNIO

/// The shared store: PostgreSQL through postgres-nio. Any number of server instances use one
/// database; the unique notification id settles concurrent accepts across them, and delivery
/// claims use `FOR UPDATE SKIP LOCKED` with a lease, so a killed instance's claims are taken over.
public final class PostgresActionStore: ActionStore {
    /// The pool, every call bounded by ``callDeadline`` (``DeadlineClient``).
    let client: DeadlineClient
    /// The pool for the calls that may take long by design — a retention batch, the migrations —
    /// bounded by ``slowCallDeadline``.
    let slowClient: DeadlineClient
    /// How long a call may take, waiting for a connection included: past it, a request answers
    /// 503 with `Retry-After` and the outbox tries again, instead of waiting for a database that
    /// is down.
    package static let callDeadline: Duration = .seconds(10)
    /// How long an accept may take, its wait for a batch in flight included: a tap is answered
    /// within it, 503 with `Retry-After` past it.
    package static let acceptDeadline: Duration = .seconds(5)
    /// How long a retention batch or a migration may take.
    package static let slowCallDeadline: Duration = .seconds(120)
    private let runner: Task<Void, Never>
    let logger: Logger
    let batcher: PostgresAcceptBatcher
    /// The LISTEN/NOTIFY channel instances wake each other on (``wakeUps``).
    let channel: String
    let wakeUpStream: AsyncStream<Void>
    private let listener: Task<Void, Never>

    /// Connects to `url` (`postgres://user:password@host:port/database`) and applies the schema
    /// migrations.
    ///
    /// The URL's query may hold `sslmode` (`disable`, `prefer` — the default, as in libpq —,
    /// `require`, or `verify-full`, which also checks the server's certificate and name) and
    /// `schema`: the tables then live in that schema (created if needed), so that several
    /// deployments, or tests, can share one database. The `schema` argument wins over the URL's.
    public init(url: String, schema: String? = nil, logger: Logger) async throws {
        var configuration = try Self.configuration(from: url)
        let schema = schema ?? Self.query(url)["schema"]
        if let schema {
            try Self.checkSchemaName(schema)
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        // One connection first: a server that is down or refuses the credentials is reported at
        // once, with its reason, instead of the pool retrying (and logging) in the background.
        try await Self.probe(url: url, configuration: configuration, logger: logger)
        // The pool's own reconnect attempts are logged at error only; the server reports
        // readiness itself.
        var backgroundLogger = logger
        backgroundLogger.logLevel = max(logger.logLevel, .error)
        // No keep-alive query on idle connections (a commit each, every 30 s per connection): a
        // connection that died is found by the call that uses it, which its deadline bounds, and
        // the pool makes another.
        configuration.options.keepAliveBehavior = nil
        let pool = PostgresClient(configuration: configuration, backgroundLogger: backgroundLogger)
        let client = DeadlineClient(pool: pool, deadline: Self.callDeadline)
        self.client = client
        self.slowClient = DeadlineClient(pool: pool, deadline: Self.slowCallDeadline)
        self.logger = logger
        // Detached: the pool must not inherit a service group's graceful shutdown from the task
        // that opened the store (PostgresClient.run stops on it). The store's owner decides when
        // the pool stops (``shutdown()``, or deinit), after the deliveries in flight recorded their outcome.
        self.runner = Task.detached { await pool.run() }
        self.batcher = PostgresAcceptBatcher(client: client, logger: logger)
        let channel = Self.channel(schema: schema)
        self.channel = channel
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wakeUpStream = wakeUps
        self.listener = Task.detached { await Self.listen(pool: pool, channel: channel, into: wake, logger: backgroundLogger) }
        do {
            if let schema {
                try await slowClient.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            try await migrate()
        } catch {
            listener.cancel()
            runner.cancel()
            throw Self.readable(error)
        }
    }

    /// Opens and closes one connection with `configuration`'s address, credentials and TLS.
    private static func probe(url: String, configuration: PostgresClient.Configuration, logger: Logger) async throws {
        guard let host = configuration.host else { return }
        var options = PostgresConnection.Configuration(
            host: host, port: configuration.port ?? 5432, username: configuration.username, password: configuration.password,
            database: configuration.database, tls: try SSLMode(url: url, host: host).connectionTLS())
        options.options.connectTimeout = .seconds(10)
        options.options.additionalStartupParameters = configuration.options.additionalStartupParameters
        var quiet = logger
        quiet.logLevel = .critical
        do {
            let connection = try await PostgresConnection.connect(configuration: options, id: 0, logger: quiet)
            try await connection.close()
        } catch {
            throw readable(error)
        }
    }

    /// PSQLError hides everything behind a generic description; this keeps the server's own
    /// message and the error code, or why the connection failed (never the credentials).
    static func readable(_ error: any Error) -> any Error {
        // A transaction's error wraps what failed in it: its body, its COMMIT or its BEGIN.
        if let failed = error as? PostgresTransactionError {
            return readable(failed.closureError ?? failed.commitError ?? failed.beginError ?? error)
        }
        guard let error = error as? PSQLError else { return error }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return StoreError("PostgreSQL: \(message)\(code)")
        }
        if let underlying = error.underlying {
            return StoreError("PostgreSQL: cannot connect: \(underlying)")
        }
        return StoreError("PostgreSQL: \(error.code)")
    }

    /// The SQLSTATE of `error` (a transaction's error: of what failed in it), if PostgreSQL sent one.
    static func sqlState(of error: any Error) -> String? {
        if let failed = error as? PostgresTransactionError {
            return (failed.closureError ?? failed.commitError ?? failed.beginError).flatMap(sqlState(of:))
        }
        return (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// Stops the connection pool.
    public func shutdown() {
        listener.cancel()
        runner.cancel()
    }

    deinit {
        listener.cancel()
        runner.cancel()
    }

    /// Checks `url` without connecting: its form, `sslmode` and `schema`.
    public static func validate(url: String) throws {
        _ = try configuration(from: url)
        if let schema = query(url)["schema"] { try checkSchemaName(schema) }
    }

    private static func checkSchemaName(_ schema: String) throws {
        guard !schema.isEmpty, schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw StoreError("schema name \"\(schema)\" must be letters, digits and _")
        }
    }

    static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, let user = components.user
        else { throw StoreError("storage URL \"\(redacted(url))\" is not postgres://user:password@host:port/database") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let query = query(url)
        if let unknown = query.keys.sorted().first(where: { $0 != "sslmode" && $0 != "schema" }) {
            throw StoreError("storage URL parameter \"\(unknown)\" is unknown; use sslmode or schema")
        }
        let mode = try SSLMode(url: url, host: host)
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user,
            password: components.password, database: database.isEmpty ? nil : database, tls: mode.tls)
    }

    /// The storage URL's `sslmode`, with libpq's meanings.
    enum SSLMode: String {
        case disable, prefer, require
        case verifyFull = "verify-full"

        /// The mode of `url`'s `sslmode` parameter. When it is absent: `prefer` for a loopback
        /// `host` (a local server rarely has a certificate), `verify-full` for any other, so that
        /// credentials never go to a server whose certificate was not checked unless the URL says
        /// `sslmode=require`, `prefer` or `disable`.
        init(url: String, host: String) throws {
            let value = PostgresActionStore.query(url)["sslmode"] ?? (LoopbackHost.contains(host) ? "prefer" : "verify-full")
            guard let mode = SSLMode(rawValue: value) else {
                throw StoreError("sslmode=\(value) is not supported; use disable, prefer, require or verify-full")
            }
            self = mode
        }

        /// What TLS is set up with: `prefer` and `require` encrypt without checking the
        /// certificate (as libpq does); `verify-full` checks the certificate and the host name.
        var tlsConfiguration: TLSConfiguration? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            switch self {
            case .disable: return nil
            case .prefer, .require: configuration.certificateVerification = .none
            case .verifyFull: configuration.certificateVerification = .fullVerification
            }
            return configuration
        }

        var tls: PostgresClient.Configuration.TLS {
            guard let tlsConfiguration else { return .disable }
            return self == .prefer ? .prefer(tlsConfiguration) : .require(tlsConfiguration)
        }

        /// The same choice for one connection, whose TLS takes a context made from the configuration.
        func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
            guard let tlsConfiguration else { return .disable }
            let context = try NIOSSLContext(configuration: tlsConfiguration)
            return self == .prefer ? .prefer(context) : .require(context)
        }
    }

    /// The storage URL's query parameters.
    static func query(_ url: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        return parameters
    }

    /// `url` without its password, for logs and messages.
    package static func redacted(_ url: String) -> String { StorageURL.redacted(url) }

    /// Versioned migrations, applied once under an advisory lock so that instances starting
    /// together do not race. Each migration is one transaction with the row that records it
    /// (PostgreSQL's DDL is transactional): a start killed at any point leaves a migration either
    /// whole or not begun, and the next start completes the schema.
    private func migrate() async throws {
        let logger = self.logger
        try await slowClient.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(7306312)", logger: logger)
            do {
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS actionable_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)
                    """, logger: logger)
                var applied = Set<Int>()
                for try await version in try await connection.query(
                    "SELECT version FROM actionable_migrations",
                    logger: logger
                ).decode(Int.self) { applied.insert(version) }
                for (version, name, statements) in Self.migrations where !applied.contains(version) {
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                        try await connection.query(
                            "INSERT INTO actionable_migrations (version, name) VALUES (\(version), \(name))", logger: logger)
                        try await connection.query("COMMIT", logger: logger)
                    } catch {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(7306312)", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(7306312)", logger: logger)
        }
        // Routed rows an instance of an older version wrote a status into (a rolling upgrade).
        try await slowClient.query(PostgresQuery(unsafeSQL: ResponseStates.normalize), logger: logger)
    }

    /// Each migration is a list of single statements (the extended protocol takes one at a time).
    static let migrations: [(Int, String, [String])] = Schema.migrations.map { ($0.version, $0.name, $0.statements(.postgres)) }

    /// Stores `action` once: batched with the accepts arriving meanwhile (see
    /// `PostgresAcceptBatcher`).
    ///
    /// The deadline counts from here, the wait for a batch in flight included: a tap is answered
    /// (503 past it) within its deadline (5 s) however many batches are queued before it. One that
    /// commits after its answer is a duplicate when the client sends it again.
    public func accept(_ action: NewResponse) async throws -> AcceptResult {
        let batcher = self.batcher
        return try await DeadlineClient.within(Self.acceptDeadline, "an accept") { try await batcher.submit(action) }
    }

    public func response(id: String) async throws -> AcceptedResponse? {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: Self.selectByID, binds: Self.binds(id)),
            logger: logger)
        for try await row in rows { return try Self.decode(row) }
        return nil
    }

    public func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [AcceptedResponse] {
        let time = now.timeIntervalSince1970
        let rows = try await client.prepared(
            ClaimResponsesText.self, try Self.sqlBindings([.text(owner), .real(time + lease), .real(time), .integer(limit)]), logger: logger)
        let claimed = try rows.map(Self.decode)
        return claimed.sorted { $0.nextAttemptAt < $1.nextAttemptAt }
    }

    public func markDelivered(id: String, owner: String, at: Date) async throws {
        try await execute(Self.markDeliveredSQL, at.timeIntervalSince1970, id, owner)
    }

    public func reschedule(id: String, owner: String, at: Date, error: String) async throws {
        try await execute(Self.rescheduleSQL, at.timeIntervalSince1970, error, id, owner)
    }

    public func markDead(id: String, owner: String, reason: String) async throws {
        try await execute(Self.markDeadSQL, reason, id, owner)
    }

    /// In one transaction, in id order (two instances never wait on each other in a cycle), and
    /// without waiting for the WAL flush: the outbox's own bookkeeping, as the endpoints' outcomes.
    public func finishResponses(_ finished: [FinishedResponse], owner: String) async throws {
        guard !finished.isEmpty else { return }
        try await transaction(relaxed: true) { connection, logger in
            for response in finished.sorted(by: { $0.id < $1.id }) {
                let (sql, values): (String, [SQLValue])
                switch response.fate {
                case .delivered(let at):
                    (sql, values) = (Self.markDeliveredSQL, [.real(at.timeIntervalSince1970), .text(response.id), .text(owner)])
                case .retry(let at, let error):
                    (sql, values) = (Self.rescheduleSQL, [.real(at.timeIntervalSince1970), .text(error), .text(response.id), .text(owner)])
                case .dead(let reason): (sql, values) = (Self.markDeadSQL, [.text(reason), .text(response.id), .text(owner)])
                }
                try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try Self.sqlBindings(values)), logger: logger)
            }
        }
    }

    public func pendingCount() async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: ActionTable.pendingCount), logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    public func oldestDue(now: Date) async throws -> Date? {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: ActionTable.oldestDue(.postgres), binds: try Self.bindings(now.timeIntervalSince1970)), logger: logger)
        for try await due in rows.decode(Double?.self) { return due.map(Date.init(timeIntervalSince1970:)) }
        return nil
    }

    /// `SELECT 1` within 2 s: `/readyz` says 503 soon after the database goes away.
    public func checkReachable() async throws {
        try await DeadlineClient(pool: client.pool, deadline: .seconds(2)).query("SELECT 1", logger: logger)
    }

    private static let selectByID = ActionTable.selectByID(.postgres)
    /// The queues' claims (`QueueTable`), each row locked as it is taken and rows another claim
    /// holds skipped.
    static let claimResponsesSQL = QueueTable.responses.claim(.postgres, lock: "FOR UPDATE SKIP LOCKED")
    static let claimDeliveriesSQL = QueueTable.deliveries.claim(.postgres, lock: "FOR UPDATE SKIP LOCKED")
    static let claimSendsSQL = QueueTable.sends.claim(.postgres, lock: "FOR UPDATE SKIP LOCKED")
    private static let markDeliveredSQL = ActionTable.markDelivered(.postgres)
    private static let rescheduleSQL = ActionTable.reschedule(.postgres)
    private static let markDeadSQL = ActionTable.markDead(.postgres)

    /// Runs `sql` with `values` as its parameters $1, $2…
    private func execute(_ sql: String, _ values: any PostgresEncodable & Sendable...) async throws {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value, context: .default) }
        try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
    }

    private static func binds(_ value: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(value)
        return bindings
    }

    static func decode(_ row: PostgresRow) throws -> AcceptedResponse {
        try ActionTable.decode(PostgresActionRow(columns: row.makeRandomAccess()))
    }
}

/// A PostgreSQL row read by `ActionTable`.
struct PostgresActionRow: ActionRow {
    let columns: PostgresRandomAccessRow

    func string(_ column: String) throws -> String { try columns[column].decode(String.self) }
    func optionalString(_ column: String) throws -> String? { try columns[column].decode(String?.self) }
    func optionalDouble(_ column: String) throws -> Double? { try columns[column].decode(Double?.self) }
    func double(_ column: String) throws -> Double { try columns[column].decode(Double.self) }
    func int(_ column: String) throws -> Int { try columns[column].decode(Int.self) }
    func optionalInt(_ column: String) throws -> Int? { try columns[column].decode(Int?.self) }
}
