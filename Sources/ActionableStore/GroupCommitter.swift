import ActionableCore
import Foundation
import GRDB

/// Batches concurrent accepts into one transaction: whatever arrives while a commit is in
/// flight goes into the next one. Each caller resumes only after its batch committed.
actor GroupCommitter {
    private let pool: DatabasePool
    private var pending: [(action: NewAction, continuation: CheckedContinuation<AcceptResult, any Error>)] = []
    private var flushing = false
    /// The most accepts in one transaction; bounds a transaction's size under a burst.
    static let maximumBatch = 512

    private let checkpointer: Checkpointer?

    init(pool: DatabasePool, checkpointer: Checkpointer?) {
        self.pool = pool
        self.checkpointer = checkpointer
    }

    func submit(_ action: NewAction) async throws -> AcceptResult {
        try await withCheckedThrowingContinuation { continuation in
            pending.append((action, continuation))
            if !flushing {
                flushing = true
                Task { await self.flush() }
            }
        }
    }

    private func flush() async {
        while !pending.isEmpty {
            let batch = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(batch.count)
            let actions = batch.map(\.action)
            do {
                let results = try await pool.write { db in try actions.map { try Self.insert($0, in: db) } }
                for (entry, result) in zip(batch, results) { entry.continuation.resume(returning: result) }
                await checkpointer?.committed()
            } catch {
                // The transaction rolled back: nothing of the batch is stored, every caller hears so.
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
        flushing = false
    }

    /// Inserts one response, or reports the answer already stored for its notification.
    private static func insert(_ action: NewAction, in db: Database) throws -> AcceptResult {
        let response = action.response
        let payload = JSONValue.object(response.payload).serialized()
        let received = action.receivedAt.timeIntervalSince1970
        // Cached statements: compiled once per connection, not per insert.
        try db.cachedStatement(sql: """
            INSERT INTO action_responses (id, notification_id, category, action, user_id, user_text, payload,
                received_at, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (notification_id) DO NOTHING
            """).execute(arguments: [action.id, response.notificationID, response.category.rawValue, response.action.rawValue,
                response.user, response.userText, payload, received, received])
        if db.changesCount == 1 { return .accepted(id: action.id) }
        guard let existing = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT id, action, user_text FROM action_responses WHERE notification_id = ?
            """), arguments: [response.notificationID])
        else { throw StoreError("insert of \(action.id) neither stored a row nor found the notification's answer") }
        let existingAction = ActionID(existing["action"] as String)
        let existingText: String? = existing["user_text"]
        if existingAction == response.action && existingText == response.userText {
            return .duplicate(id: existing["id"])
        }
        return .conflict(existingID: existing["id"], existingAction: existingAction)
    }
}
