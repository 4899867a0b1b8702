import ActionableStore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The connection pool with a deadline on every call: a call that has not finished within
/// ``deadline`` — PostgreSQL stopped (the pool waits for a connection it cannot make), a
/// connection cut mid-query, a server that stalls — fails with ``StoreError`` instead of waiting.
///
/// The caller's answer is what matters: an accept then answers 503 with `Retry-After` (the client
/// sends the tap again, and the notification's unique id makes the second copy a duplicate of the
/// first should the first have committed after all), `/readyz` answers 503, and an outbox claim or
/// outcome fails and is tried again (a lease runs out at worst). A call past its deadline is
/// cancelled — a wait for a connection stops at once — and left to end on its own.
struct DeadlineClient: Sendable {
    let pool: PostgresClient
    /// How long a call may take, waiting for a connection included.
    let deadline: Duration

    /// `query` on a pooled connection, its rows read in full within the deadline: a connection
    /// that dies, or a server that stalls, between two rows fails the call like any other
    /// (streamed rows read after it returned were bounded by nothing).
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger) async throws -> CollectedRows {
        let pool = self.pool
        return try await Self.within(deadline, query.sql) {
            var rows: [PostgresRow] = []
            for try await row in try await pool.query(query, logger: logger) { rows.append(row) }
            return CollectedRows(rows: rows)
        }
    }

    /// `body` with a pooled connection.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let pool = self.pool
        return try await Self.within(deadline, "a connection's work") { try await pool.withConnection(body) }
    }

    /// `body` in a transaction on a pooled connection.
    func withTransaction<T: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let pool = self.pool
        return try await Self.within(deadline, "a transaction") {
            try await pool.withTransaction(logger: logger) { connection in try await body(connection) }
        }
    }

    /// The result of `work`, or ``StoreError`` once `deadline` has passed (`work` is then cancelled
    /// and left to end on its own: the caller does not wait for a call that ignores cancellation).
    static func within<T: Sendable>(
        _ deadline: Duration, _ what: String, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard race.start(continuation) else { return }
                let worker = Task { race.finish(await Result(catching: work)) }
                // The timer is an event loop's scheduled task, not a second Swift task sleeping:
                // one allocation and no cancellation to run on every call.
                let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(
                    in: .nanoseconds(Int64(deadline.components.seconds) * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000)
                ) {
                    let summary = what.split(separator: "\n").first.map { String($0.prefix(60)) } ?? what
                    race.finish(.failure(StoreError("PostgreSQL did not answer within \(deadline.components.seconds) s (\(summary))")))
                }
                race.add {
                    worker.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

/// Who ends a call first — its work, its deadline or its caller's cancellation — and the tasks the
/// others ran in, cancelled once it is decided.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var cancel: (@Sendable () -> Void)?
        var done = false
    }
    private let state = Mutex(State())

    /// Sets the caller's continuation; `false` when the call was already ended (cancelled first).
    func start(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let early = state.withLock { state -> Result<T, any Error>? in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            return early
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// What ends the race's worker and timer once it is decided.
    func add(_ cancel: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            guard !state.done else { return true }
            state.cancel = cancel
            return false
        }
        if done { cancel() }
    }

    /// Ends the call with `result`, unless it has ended already.
    func finish(_ result: Result<T, any Error>) {
        let (continuation, cancel) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.done else { return (nil, nil) }
            state.done = true
            if state.continuation == nil { state.early = result }
            defer {
                state.continuation = nil
                state.cancel = nil
            }
            return (state.continuation, state.cancel)
        }
        cancel?()
        continuation?.resume(with: result)
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing `body`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// A query's rows, read in full (``DeadlineClient/query(_:logger:)``), iterated and decoded as
/// postgres-nio's row sequence is.
struct CollectedRows: AsyncSequence, Sendable {
    typealias Element = PostgresRow
    let rows: [PostgresRow]

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[PostgresRow]>
        mutating func next() async throws -> PostgresRow? { base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: rows.makeIterator()) }

    /// Each row as one column's value.
    func decode<Column: PostgresDecodable & Sendable>(_ type: Column.Type) -> AsyncThrowingMapSequence<Self, Column> {
        map { try $0.decode(Column.self) }
    }

    /// Each row as a tuple of its columns' values.
    func decode<each Column: PostgresDecodable & Sendable>(
        _ type: (repeat each Column).Type
    ) -> AsyncThrowingMapSequence<Self, (repeat each Column)> {
        map { try $0.decode((repeat each Column).self) }
    }
}
