import ActionableCore
import ActionableStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Batches concurrent accepts into one `INSERT … SELECT FROM unnest(…)` statement, as the
/// SQLite store batches them into one transaction: one statement, one plan and one WAL flush
/// for a whole batch instead of one per response. Whatever arrives while batches are in
/// flight goes into the next one; at most ``maximumConcurrentBatches`` run at once, so one
/// batch's flush overlaps the next one's insert.
///
/// Each response keeps its own answer: accepted when its row went in; otherwise the row that
/// holds its notification (committed by another request, batch or instance) decides between
/// duplicate and conflict, as the single-row path did.
final class PostgresAcceptBatcher: Sendable {
    private struct Entry: Sendable {
        var action: NewResponse
        var payload: String
        var continuation: CheckedContinuation<AcceptResult, any Error>
    }

    private struct State {
        var pending: [Entry] = []
        var running = 0
    }

    private let client: DeadlineClient
    private let logger: Logger
    private let state = Mutex(State())
    /// How accepted responses are handed to their endpoints in their own statement; `nil` leaves
    /// it to the delivery worker.
    private let acceptFanOut = Mutex<AcceptFanOut?>(nil)

    /// Hands accepted responses to their endpoints in the accept's statement, as `fanOut` plans.
    func fanOutAtAccept(_ fanOut: AcceptFanOut) { acceptFanOut.withLock { $0 = fanOut } }
    /// The most responses in one statement.
    static let maximumBatch = 256
    /// How many batches may be in flight at once.
    static let maximumConcurrentBatches = 2

    init(client: DeadlineClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    func submit(_ action: NewResponse) async throws -> AcceptResult {
        let payload = action.response.payloadJSON
        return try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state -> Bool in
                state.pending.append(Entry(action: action, payload: payload, continuation: continuation))
                guard state.running < Self.maximumConcurrentBatches else { return false }
                state.running += 1
                return true
            }
            if start { Task { await self.drain() } }
        }
    }

    /// Writes batches until nothing is pending.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Entry] in
                guard !state.pending.isEmpty else {
                    state.running -= 1
                    return []
                }
                let batch = Array(state.pending.prefix(Self.maximumBatch))
                state.pending.removeFirst(batch.count)
                // In notification order: two batches in flight at once then take their unique-key
                // locks in the same order, and never wait on each other in a cycle (a retried tap
                // in one and its first copy in the other deadlocked, seen once in the badge conformance test).
                return batch.sorted { $0.action.response.notificationID < $1.action.response.notificationID }
            }
            guard !batch.isEmpty else { return }
            do {
                let results: [Result<AcceptResult, any Error>]
                do {
                    results = try await write(batch)
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40P01" {
                    // Should PostgreSQL still pick this statement as a deadlock victim, nothing of
                    // it was stored: once more.
                    logger.debug("a deadlock was resolved by PostgreSQL; the batch is written again", metadata: ["error": "\(error)"])
                    results = try await write(batch)
                }
                for (entry, result) in zip(batch, results) { entry.continuation.resume(with: result) }
            } catch {
                // The statement failed as a whole: nothing of the batch is stored.
                for entry in batch { entry.continuation.resume(throwing: PostgresActionStore.readable(error)) }
            }
        }
    }

    /// The accept's one statement (prepared: ``AcceptText``); parameters, one array each: ids,
    /// notification ids, categories, actions, users, texts, whether each has a text, payloads,
    /// received at, answerable until (0: none), trace contexts ("": none), whether endpoints may
    /// take each. The responses that went in also leave their users' badges (marked read, or
    /// recorded read if the backend has not recorded them yet), atomically.
    static let acceptSQL = """
        WITH stored AS (
            INSERT INTO action_responses (id, notification_id, category, action, user_id, user_text, payload,
                received_at, next_attempt_at, answerable_until, trace_parent, fanned_out, status)
            SELECT id, notification_id, category, action, user_id, CASE WHEN has_text THEN user_text END, payload,
                received_at, received_at, CASE WHEN answerable > 0 THEN answerable END, NULLIF(trace, ''), taken,
                CASE WHEN taken = 1 THEN 'routed' ELSE 'pending' END
            FROM (
                SELECT new.*, CASE WHEN fannable AND EXISTS (
                    SELECT 1 FROM endpoints e WHERE \(takes("e", "new"))) THEN 1 ELSE 0 END AS taken
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::text[],
                    $9::float8[], $10::float8[], $11::text[], $12::bool[])
                    AS new(id, notification_id, category, action, user_id, user_text, has_text, payload, received_at, answerable, trace,
                        fannable)
            ) AS planned
            ON CONFLICT (notification_id) DO NOTHING
            RETURNING id, notification_id, user_id, category, action, received_at, fanned_out
        ), handed AS (
            INSERT INTO endpoint_deliveries (response_id, endpoint_id, next_attempt_at, queued_at)
            SELECT s.id, e.id, s.received_at, s.received_at
            FROM stored s JOIN endpoints e ON s.fanned_out = 1 AND \(takes("e", "s"))
            ON CONFLICT (response_id, endpoint_id) DO NOTHING
        ), read AS (
            INSERT INTO badge_entries (notification_id, user_id, category, sent_at, read_at)
            SELECT notification_id, user_id, category, received_at, received_at FROM stored
            ON CONFLICT (notification_id) DO UPDATE SET read_at = COALESCE(badge_entries.read_at, excluded.read_at)
        )
        SELECT id FROM stored
        """

    /// Whether endpoint row `endpoint` takes the category and action of row `response`, in SQL, as
    /// `Endpoint.takes(category:action:)` does: its filter (a JSON array of strings, as
    /// `EndpointTable` writes it) lists `*`, `category.*` or `category.action`. A pattern is
    /// looked for with its quotes in the array's text — exact for the patterns an endpoint can
    /// hold (category and action names have no quote or backslash) — so that no row, however
    /// written, can make an accept fail to parse it.
    static func takes(_ endpoint: String, _ response: String) -> String {
        let quoted = { (pattern: String) in "strpos(\(endpoint).filter, '\"' || \(pattern) || '\"') > 0" }
        return "(\(quoted("'*'")) OR \(quoted("\(response).category || '.*'")) OR \(quoted("\(response).category || '.' || \(response).action")))"
    }

    private func write(_ batch: [Entry]) async throws -> [Result<AcceptResult, any Error>] {
        let ids = batch.map(\.action.id)
        let notifications = batch.map(\.action.response.notificationID)
        let received = batch.map(\.action.receivedAt.timeIntervalSince1970)
        let texts = batch.map { $0.action.response.userText ?? "" }
        let hasText = batch.map { $0.action.response.userText != nil }
        // 0 stands for none (no token bound the notification): the column is then NULL.
        let answerable = batch.map { $0.action.answerableUntil?.timeIntervalSince1970 ?? 0 }
        // "" stands for no trace context (tracing off): the column is then NULL.
        let traces = batch.map { $0.action.traceParent ?? "" }
        // Whether the endpoints may take each response (an in-process handler takes precedence):
        // the endpoints whose filter takes it are found by the statement itself, which inserts
        // their deliveries with the response (no read of the endpoints before, no second claim
        // stage), as `AcceptFanOut.plan` would — the filter's patterns are `*`, `category.*` and
        // `category.action` (`Endpoint.takes(category:action:)`).
        let fanOut = acceptFanOut.withLock { $0 }
        let fannable = batch.map { entry in
            fanOut.map { !$0.handledInProcess(entry.action.response.category.rawValue, entry.action.response.action.rawValue) } ?? false
        }
        // One statement, prepared once per connection (``acceptSQL``).
        var bindings = PostgresBindings()
        bindings.append(ids)
        bindings.append(notifications)
        bindings.append(batch.map(\.action.response.category.rawValue))
        bindings.append(batch.map(\.action.response.action.rawValue))
        bindings.append(batch.map(\.action.response.user))
        bindings.append(texts)
        bindings.append(hasText)
        bindings.append(batch.map(\.payload))
        bindings.append(received)
        bindings.append(answerable)
        bindings.append(traces)
        bindings.append(fannable)
        let rows = try await client.prepared(AcceptText.self, bindings, logger: logger)
        var inserted = Set<String>()
        for row in rows { inserted.insert(try row.decode(String.self)) }
        if inserted.count == batch.count { return ids.map { .success(.accepted(id: $0)) } }

        // The others found their notification answered already: by whom, and how.
        let missing = batch.filter { !inserted.contains($0.action.id) }.map(\.action.response.notificationID)
        var existing: [String: (id: String, action: String, text: String?)] = [:]
        let found = try await client.query(
            """
            SELECT notification_id, id, action, user_text FROM action_responses WHERE notification_id = ANY(\(missing)::text[])
            """, logger: logger)
        for try await (notification, id, action, text) in found.decode((String, String, String, String?).self) {
            existing[notification] = (id, action, text)
        }
        return batch.map { entry in
            let response = entry.action.response
            if inserted.contains(entry.action.id) { return .success(.accepted(id: entry.action.id)) }
            guard let first = existing[response.notificationID] else {
                return .failure(StoreError("insert of \(entry.action.id) neither stored a row nor found the notification's answer"))
            }
            return .success(.answered(response, byID: first.id, action: ActionID(first.action), text: first.text))
        }
    }
}
