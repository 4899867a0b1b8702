import ActionableStore
import Logging
import PostgresNIO

/// Instances wake each other through PostgreSQL's LISTEN/NOTIFY: a change that makes outbox work
/// due on any instance — an endpoint created, changed or resumed (held responses let go with it),
/// a re-queue, a response handed to endpoints by a worker, a send recorded — sends a notification
/// on the storage's channel in its own transaction (delivered at commit, collapsed within it),
/// and every instance listening claims at once instead of at its next poll. Polling stays as a
/// fallback of seconds (``pollFallback``), for retries whose time comes and for a wake-up lost
/// while the listening connection was being made again.
extension PostgresActionStore {
    /// The channel: one per schema, so that deployments (and tests) sharing a database through
    /// schemas do not wake each other.
    static func channel(schema: String?) -> String { "actionable_outbox" + (schema.map { "_" + $0.lowercased() } ?? "") }

    public var wakeUps: AsyncStream<Void>? { wakeUpStream }

    /// Ten seconds: other instances' changes come as wake-ups, this instance's own accepts and
    /// sends wake its workers in-process, and the endpoint worker also wakes when a retry it
    /// scheduled or a breaker's probe comes due. What only the poll finds — the leases of an
    /// instance that died, a retry another instance scheduled before it stopped — waits at most
    /// this long more. (Four idle instances with an endpoint: about 2 commits a second in all.)
    public var pollFallback: Duration { .seconds(10) }

    /// Sends a wake-up on the storage's channel, delivered when `connection`'s transaction commits.
    func notifyOutbox(_ connection: PostgresConnection, _ logger: Logger) async throws {
        try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger)
    }

    /// Listens on the channel on a connection of its own until cancelled, made again after any
    /// failure (a second later); yields once each time it starts listening (a wake-up may have
    /// been missed) and once per notification.
    static func listen(
        pool: PostgresClient, channel: String, into wake: AsyncStream<Void>.Continuation, logger: Logger
    ) async {
        while !Task.isCancelled {
            do {
                try await pool.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        wake.yield()
                        for try await _ in notifications { wake.yield() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.debug("the wake-up channel's connection ended; listening again", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
