import ActionableCore
import Foundation
import GRDB

/// The embedded store: SQLite through GRDB, in WAL mode with `synchronous = FULL` (a reply of
/// 202 survives power loss), schema migrations applied at open.
///
/// Accepts are group-committed: while one transaction commits, the requests that arrive wait
/// and go into the next one together, so durability costs one fsync per batch, not per request.
public final class SQLiteActionStore: ActionStore {
    private let pool: DatabasePool
    private let committer: GroupCommitter

    /// Opens (creating if needed) the database at `path` and migrates it.
    public init(path: String) async throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        // DatabasePool sets synchronous = NORMAL after prepareDatabase runs; FULL is set here,
        // on the writer connection, afterwards (and read back in a test).
        // The log is checkpointed beside the writer, not inside its commits (see Checkpointer).
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
        try Self.migrator.migrate(pool)
        self.pool = pool
        self.committer = GroupCommitter(pool: pool, checkpointer: try Checkpointer(path: path))
    }

    deinit { committer.stop() }

    /// Versioned migrations; a new version is appended, never edited.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: action responses") { db in
            try db.execute(sql: """
                CREATE TABLE action_responses (
                    id TEXT PRIMARY KEY NOT NULL,
                    notification_id TEXT NOT NULL UNIQUE,
                    category TEXT NOT NULL,
                    action TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    user_text TEXT,
                    payload TEXT NOT NULL,
                    received_at DOUBLE NOT NULL,
                    status TEXT NOT NULL DEFAULT 'pending',
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at DOUBLE NOT NULL,
                    lease_owner TEXT,
                    lease_until DOUBLE,
                    last_error TEXT,
                    delivered_at DOUBLE
                );
                CREATE INDEX action_responses_due ON action_responses (status, next_attempt_at);
                """)
        }
        return migrator
    }

    /// A numeric setting of the writer connection, e.g. `wal_autocheckpoint`.
    func pragma(_ name: String) async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA \(name)") ?? -1 }
    }

    /// The `synchronous` setting of the writer connection (2 is FULL).
    public func synchronousMode() async throws -> Int {
        try await pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// `PRAGMA integrity_check`: "ok" for a sound database.
    public func integrityCheck() async throws -> String {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }

    public func accept(_ action: NewAction) async throws -> AcceptResult {
        try await committer.submit(action)
    }

    public func action(id: String) async throws -> StoredAction? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM action_responses WHERE id = ?", arguments: [id]).map(Self.decode)
        }
    }

    public func claimDue(now: Date, limit: Int, lease: TimeInterval, owner: String) async throws -> [StoredAction] {
        let time = now.timeIntervalSince1970
        return try await pool.write { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM action_responses
                WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                ORDER BY next_attempt_at LIMIT ?
                """, arguments: [time, time, limit])
            var claimed: [StoredAction] = []
            for row in rows {
                var action = try Self.decode(row)
                try db.execute(sql: """
                    UPDATE action_responses SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?
                    """, arguments: [owner, time + lease, action.id])
                action.attempts += 1
                claimed.append(action)
            }
            return claimed
        }
    }

    public func markDelivered(id: String, owner: String, at: Date) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE action_responses SET status = 'delivered', delivered_at = ?, lease_owner = NULL, lease_until = NULL,
                    last_error = NULL
                WHERE id = ? AND lease_owner = ? AND status = 'pending'
                """, arguments: [at.timeIntervalSince1970, id, owner])
        }
    }

    public func reschedule(id: String, owner: String, at: Date, error: String) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE action_responses SET next_attempt_at = ?, last_error = ?, lease_owner = NULL, lease_until = NULL
                WHERE id = ? AND lease_owner = ? AND status = 'pending'
                """, arguments: [at.timeIntervalSince1970, error, id, owner])
        }
    }

    public func markDead(id: String, owner: String, reason: String) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                UPDATE action_responses SET status = 'dead', last_error = ?, lease_owner = NULL, lease_until = NULL
                WHERE id = ? AND lease_owner = ? AND status = 'pending'
                """, arguments: [reason, id, owner])
        }
    }

    public func pendingCount() async throws -> Int {
        try await pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM action_responses WHERE status = 'pending'") ?? 0
        }
    }

    public func checkReachable() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    static func decode(_ row: Row) throws -> StoredAction {
        let payloadText: String = row["payload"]
        let payload = try JSONDecoder().decode(JSONValue.self, from: Data(payloadText.utf8))
        guard case .object(let pairs) = payload else { throw StoreError("stored payload is not an object") }
        let response = ActionResponse(
            category: CategoryID(row["category"] as String), action: ActionID(row["action"] as String),
            notificationID: row["notification_id"], user: row["user_id"], userText: row["user_text"], payload: pairs)
        let statusText: String = row["status"]
        return StoredAction(
            id: row["id"], response: response, receivedAt: Date(timeIntervalSince1970: row["received_at"]),
            status: DeliveryStatus(rawValue: statusText) ?? .pending, attempts: row["attempts"],
            nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]), lastError: row["last_error"])
    }
}

/// A storage failure that is not the database's own error.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
