import ActionableCore
import ActionableStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// The shared store: PostgreSQL through postgres-nio. Any number of server instances use one
/// database; the unique notification id settles concurrent accepts across them, and delivery
/// claims use `FOR UPDATE SKIP LOCKED` with a lease, so a killed instance's claims are taken over.
public final class PostgresActionStore: ActionStore {
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger
    private let batcher: PostgresAcceptBatcher

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
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw StoreError("schema name \"\(schema)\" must be letters, digits and _")
            }
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.runner = Task { await client.run() }
        self.batcher = PostgresAcceptBatcher(client: client, logger: logger)
        do {
            if let schema {
                try await client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            try await migrate()
        } catch {
            runner.cancel()
            throw Self.readable(error)
        }
    }

    /// PSQLError hides everything behind a generic description; this keeps the server's own
    /// message and the error code (never the connection's credentials).
    static func readable(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        let code = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
        return StoreError("PostgreSQL: \(message)\(code)")
    }

    /// Stops the connection pool.
    public func shutdown() {
        runner.cancel()
    }

    deinit { runner.cancel() }

    static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, let user = components.user
        else { throw StoreError("storage URL \"\(redacted(url))\" is not postgres://user:password@host:port/database") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let query = query(url)
        if let unknown = query.keys.sorted().first(where: { $0 != "sslmode" && $0 != "schema" }) {
            throw StoreError("storage URL parameter \"\(unknown)\" is unknown; use sslmode or schema")
        }
        guard let mode = SSLMode(rawValue: query["sslmode"] ?? "prefer") else {
            throw StoreError("sslmode=\(query["sslmode"] ?? "") is not supported; use disable, prefer, require or verify-full")
        }
        return PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
            password: components.password, database: database.isEmpty ? nil : database, tls: mode.tls)
    }

    /// The storage URL's `sslmode`, with libpq's meanings.
    enum SSLMode: String {
        case disable, prefer, require
        case verifyFull = "verify-full"

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
    }

    /// The storage URL's query parameters.
    static func query(_ url: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(string: url)?.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        return parameters
    }

    /// `url` without its password, for logs and messages.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }

    /// Versioned migrations, applied once under an advisory lock so that instances starting
    /// together do not race.
    private func migrate() async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(7306312)", logger: logger)
            do {
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS actionable_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)
                    """, logger: logger)
                var applied = Set<Int>()
                for try await version in try await connection.query("SELECT version FROM actionable_migrations",
                    logger: logger).decode(Int.self) { applied.insert(version) }
                for (version, name, statements) in Self.migrations where !applied.contains(version) {
                    for sql in statements { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
                    try await connection.query(
                        "INSERT INTO actionable_migrations (version, name) VALUES (\(version), \(name))", logger: logger)
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(7306312)", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(7306312)", logger: logger)
        }
    }

    /// Each migration is a list of single statements (the extended protocol takes one at a time).
    static let migrations: [(Int, String, [String])] = [
        (1, "action responses", ["""
            CREATE TABLE action_responses (
                id TEXT PRIMARY KEY,
                notification_id TEXT NOT NULL UNIQUE,
                category TEXT NOT NULL,
                action TEXT NOT NULL,
                user_id TEXT NOT NULL,
                user_text TEXT,
                payload TEXT NOT NULL,
                received_at DOUBLE PRECISION NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending',
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at DOUBLE PRECISION NOT NULL,
                lease_owner TEXT,
                lease_until DOUBLE PRECISION,
                last_error TEXT,
                delivered_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX action_responses_due ON action_responses (status, next_attempt_at)",
        ]),
    ]

    /// Stores `action` once: batched with the accepts arriving meanwhile (see
    /// `PostgresAcceptBatcher`).
    public func accept(_ action: NewAction) async throws -> AcceptResult {
        try await batcher.submit(action)
    }

    private static let columns = """
        id, notification_id, category, action, user_id, user_text, payload, received_at, status, attempts,
        next_attempt_at, last_error
        """

    public func action(id: String) async throws -> StoredAction? {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: "SELECT \(Self.columns) FROM action_responses WHERE id = $1", binds: Self.binds(id)),
            logger: logger)
        for try await row in rows { return try Self.decode(row) }
        return nil
    }

    public func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [StoredAction] {
        let time = now.timeIntervalSince1970
        let rows = try await client.query("""
            UPDATE action_responses SET lease_owner = \(owner), lease_until = \(time + lease), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM action_responses
                WHERE status = 'pending' AND next_attempt_at <= \(time) AND (lease_until IS NULL OR lease_until < \(time))
                ORDER BY next_attempt_at LIMIT \(limit)
                FOR UPDATE SKIP LOCKED)
            RETURNING id, notification_id, category, action, user_id, user_text, payload, received_at, status, attempts,
                next_attempt_at, last_error
            """, logger: logger)
        var claimed: [StoredAction] = []
        for try await row in rows { claimed.append(try Self.decode(row)) }
        return claimed.sorted { $0.nextAttemptAt < $1.nextAttemptAt }
    }

    public func markDelivered(id: String, owner: String, at: Date) async throws {
        try await client.query("""
            UPDATE action_responses SET status = 'delivered', delivered_at = \(at.timeIntervalSince1970),
                lease_owner = NULL, lease_until = NULL, last_error = NULL
            WHERE id = \(id) AND lease_owner = \(owner) AND status = 'pending'
            """, logger: logger)
    }

    public func reschedule(id: String, owner: String, at: Date, error: String) async throws {
        try await client.query("""
            UPDATE action_responses SET next_attempt_at = \(at.timeIntervalSince1970), last_error = \(error),
                lease_owner = NULL, lease_until = NULL
            WHERE id = \(id) AND lease_owner = \(owner) AND status = 'pending'
            """, logger: logger)
    }

    public func markDead(id: String, owner: String, reason: String) async throws {
        try await client.query("""
            UPDATE action_responses SET status = 'dead', last_error = \(reason), lease_owner = NULL, lease_until = NULL
            WHERE id = \(id) AND lease_owner = \(owner) AND status = 'pending'
            """, logger: logger)
    }

    public func pendingCount() async throws -> Int {
        let rows = try await client.query("SELECT COUNT(*)::INTEGER FROM action_responses WHERE status = 'pending'",
            logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    public func checkReachable() async throws {
        try await client.query("SELECT 1", logger: logger)
    }

    private static func binds(_ value: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(value)
        return bindings
    }

    private static func decode(_ row: PostgresRow) throws -> StoredAction {
        let (id, notification, category, action, user, text, payloadText) =
            try row.decode((String, String, String, String, String, String?, String).self, context: .default)
        let columns = row.makeRandomAccess()
        let received = try columns["received_at"].decode(Double.self)
        let status = try columns["status"].decode(String.self)
        let attempts = try columns["attempts"].decode(Int.self)
        let next = try columns["next_attempt_at"].decode(Double.self)
        let lastError = try columns["last_error"].decode(String?.self)
        let payload = try JSONDecoder().decode(JSONValue.self, from: Data(payloadText.utf8))
        guard case .object(let pairs) = payload else { throw StoreError("stored payload is not an object") }
        return StoredAction(
            id: id,
            response: ActionResponse(category: CategoryID(category), action: ActionID(action), notificationID: notification,
                user: user, userText: text, payload: pairs),
            receivedAt: Date(timeIntervalSince1970: received), status: DeliveryStatus(rawValue: status) ?? .pending,
            attempts: attempts, nextAttemptAt: Date(timeIntervalSince1970: next), lastError: lastError)
    }
}
