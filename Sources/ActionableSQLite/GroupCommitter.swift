import ActionableCore
import ActionableStore
import Foundation
import GRDB

/// Batches concurrent accepts into one transaction: whatever arrives while a commit is in
/// flight goes into the next one. Each caller resumes only after its batch committed.
///
/// The batches are written by a thread of its own, which goes from one commit straight to the
/// next. Run from the cooperative pool instead, each round had to wait for a free thread there
/// (two on a 2-core machine, busy parsing requests) before it could start the next commit, and
/// the database sat idle meanwhile.
///
/// `@unchecked Sendable`: its mutable state (`pending`, `stopped`) is only touched with
/// `condition` locked, and `pool` and `checkpointer` are themselves `Sendable`.
final class GroupCommitter: @unchecked Sendable {
    /// An accept waiting for its batch. The payload is serialized by the caller, so the
    /// writer's time goes to SQLite.
    private struct Entry {
        var action: NewAction
        var payload: String
        var continuation: CheckedContinuation<AcceptResult, any Error>
    }

    private let pool: DatabasePool
    private let checkpointer: Checkpointer?
    /// Guards `pending` and `stopped`, and wakes the writer.
    private let condition = NSCondition()
    private var pending: [Entry] = []
    private var stopped = false
    /// The most accepts in one transaction; bounds a transaction's size under a burst.
    static let maximumBatch = 512

    init(pool: DatabasePool, checkpointer: Checkpointer?) {
        self.pool = pool
        self.checkpointer = checkpointer
        let thread = Thread { [self] in self.run() }
        thread.name = "actionable-sqlite-writer"
        thread.start()
    }

    func submit(_ action: NewAction) async throws -> AcceptResult {
        let payload = JSONValue.object(action.response.payload).serialized()
        return try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            guard !stopped else {
                condition.unlock()
                continuation.resume(throwing: StoreError("the store is closed"))
                return
            }
            pending.append(Entry(action: action, payload: payload, continuation: continuation))
            condition.signal()
            condition.unlock()
        }
    }

    /// Lets the writer finish what is pending, then end.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        var commits = 0
        while true {
            condition.lock()
            while pending.isEmpty && !stopped { condition.wait() }
            if pending.isEmpty {  // stopped, and nothing left
                condition.unlock()
                return
            }
            let batch = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(batch.count)
            condition.unlock()
            do {
                let results = try pool.write { db in try batch.map { try Self.insert($0.action, payload: $0.payload, in: db) } }
                for (entry, result) in zip(batch, results) { entry.continuation.resume(returning: result) }
            } catch {
                // The transaction rolled back: nothing of the batch is stored, every caller hears so.
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
            commits += 1
            if commits % Checkpointer.commitsPerCheckpoint == 0, let checkpointer {
                Task { await checkpointer.checkpointUnlessRunning() }
            }
        }
    }

    private static let insertSQL = ActionTable.insertUnlessAnswered(.sqlite)
    private static let answerSQL = ActionTable.answerOfNotification(.sqlite)
    private static let markAnsweredSQL = BadgeTable.markAnswered(.sqlite)

    /// Inserts one response, or reports the answer already stored for its notification.
    private static func insert(_ action: NewAction, payload: String, in db: Database) throws -> AcceptResult {
        let response = action.response
        let received = action.receivedAt.timeIntervalSince1970
        // Cached statements: compiled once per connection, not per insert.
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: [
            action.id, response.notificationID, response.category.rawValue, response.action.rawValue,
            response.user, response.userText, payload, received,
        ])
        if db.changesCount == 1 {
            // In the same transaction: the notification leaves the user's badge.
            try db.cachedStatement(sql: Self.markAnsweredSQL).execute(arguments: [
                response.notificationID, response.user, response.category.rawValue, received,
            ])
            return .accepted(id: action.id)
        }
        guard let existing = try Row.fetchOne(db.cachedStatement(sql: Self.answerSQL), arguments: [response.notificationID])
        else { throw StoreError("insert of \(action.id) neither stored a row nor found the notification's answer") }
        return .answered(
            response, byID: existing["id"], action: ActionID(existing["action"] as String),
            text: existing["user_text"])
    }
}
