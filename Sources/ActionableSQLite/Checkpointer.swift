import GRDB

/// Moves the write-ahead log into the database file on a connection of its own, so that the
/// writer never stops for it. SQLite's automatic checkpoint runs inside a commit, on the
/// writer, and with `synchronous = FULL` it syncs the database file too: every thousandth page
/// a commit would wait for that, and so would the requests batched behind it.
///
/// The writer's automatic checkpoint is turned off; every ``commitsPerCheckpoint`` commits a
/// PASSIVE checkpoint runs here, beside the writer (it copies what no reader still
/// needs and never blocks a commit). Once a checkpoint has caught up, SQLite starts the log
/// over at the next commit.
actor Checkpointer {
    private let connection: DatabaseQueue
    private var running = false
    static let commitsPerCheckpoint = 64

    init(path: String) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        try connection.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
    }

    /// A checkpoint, unless one is running already (the writer asks every
    /// ``commitsPerCheckpoint`` commits).
    func checkpointUnlessRunning() async {
        guard !running else { return }
        running = true
        await checkpoint()
    }

    /// One PASSIVE checkpoint now; returns SQLite's (log frames, frames checkpointed).
    @discardableResult
    func checkpoint() async -> (log: Int, checkpointed: Int)? {
        defer { running = false }
        // A failed checkpoint loses nothing: the log keeps every commit, and the next one retries.
        return try? await connection.writeWithoutTransaction { db in
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
            return (row?[1] ?? -1, row?[2] ?? -1)
        }
    }
}
