import ActionableCore
import ActionableStore
import Foundation
import GRDB
import Synchronization

/// Batches concurrent writes — accepts, and sends recorded in the badge ledger — into one
/// transaction: whatever arrives while a commit is in flight goes into the next one. Each caller
/// resumes only after its batch committed. Jobs run in arrival order inside the transaction, so
/// the badge a record answers counts every write before it.
///
/// The batches are written by a thread of its own, which goes from one commit straight to the
/// next. Run from the cooperative pool instead, each round had to wait for a free thread there
/// (two on a 2-core machine, busy parsing requests) before it could start the next commit, and
/// the database sat idle meanwhile.
///
/// `@unchecked Sendable`: its mutable state (`pending`, `stopped`) is only touched with
/// `condition` locked, and `pool` and `checkpointer` are themselves `Sendable`.
final class GroupCommitter: @unchecked Sendable {
    /// A write waiting for its batch. An accept's payload is serialized by the caller, so the
    /// writer's time goes to SQLite.
    private enum Entry {
        case accept(NewResponse, payload: String, CheckedContinuation<AcceptResult, any Error>)
        case record(SentNotification, countingSince: Date, CheckedContinuation<BadgeRecordResult, any Error>)

        /// What a job produced inside the transaction, handed to its caller after the commit.
        enum Outcome {
            case accepted(AcceptResult)
            case recorded(BadgeRecordResult)
        }

        /// `endpoints`: the endpoints an accepted response is handed to in this commit.
        func run(in db: Database, endpoints: [String]) throws -> Outcome {
            switch self {
            case .accept(let action, let payload, _):
                return .accepted(try GroupCommitter.insert(action, payload: payload, endpoints: endpoints, in: db))
            case .record(let sent, let since, _): return .recorded(try GroupCommitter.record(sent, countingSince: since, in: db))
            }
        }

        func resume(with outcome: Result<Outcome, any Error>) {
            switch (self, outcome) {
            case (.accept(_, _, let continuation), .success(.accepted(let result))): continuation.resume(returning: result)
            case (.record(_, _, let continuation), .success(.recorded(let result))): continuation.resume(returning: result)
            case (.accept(_, _, let continuation), .failure(let error)): continuation.resume(throwing: error)
            case (.record(_, _, let continuation), .failure(let error)): continuation.resume(throwing: error)
            case (.accept(_, _, let continuation), _): continuation.resume(throwing: StoreError("a batched accept had no result"))
            case (.record(_, _, let continuation), _): continuation.resume(throwing: StoreError("a batched record had no result"))
            }
        }
    }

    private let pool: DatabasePool
    private let checkpointer: Checkpointer?
    /// How accepted responses are handed to their endpoints in their own commit; `nil` leaves it
    /// to the delivery worker.
    private let acceptFanOut = Mutex<AcceptFanOut?>(nil)
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

    /// Hands accepted responses to their endpoints in the accept's commit, as `fanOut` plans.
    func fanOutAtAccept(_ fanOut: AcceptFanOut) { acceptFanOut.withLock { $0 = fanOut } }

    func submit(_ action: NewResponse) async throws -> AcceptResult {
        let payload = action.response.payloadJSON
        return try await withCheckedThrowingContinuation { continuation in
            enqueue(.accept(action, payload: payload, continuation))
        }
    }

    func record(_ sent: SentNotification, countingSince: Date) async throws -> BadgeRecordResult {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(.record(sent, countingSince: countingSince, continuation))
        }
    }

    private func enqueue(_ entry: Entry) {
        condition.lock()
        guard !stopped else {
            condition.unlock()
            entry.resume(with: .failure(StoreError("the store is closed")))
            return
        }
        pending.append(entry)
        condition.signal()
        condition.unlock()
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
            let fanOut = acceptFanOut.withLock { $0 }
            do {
                let outcomes = try pool.write { db in
                    let plan = try fanOut.map { try Self.endpoints(of: batch, $0, in: db) } ?? []
                    return try batch.enumerated().map { index, entry in
                        try entry.run(in: db, endpoints: index < plan.count ? plan[index] : [])
                    }
                }
                for (entry, outcome) in zip(batch, outcomes) { entry.resume(with: .success(outcome)) }
            } catch {
                // The transaction rolled back: nothing of the batch is stored, every caller hears so.
                for entry in batch { entry.resume(with: .failure(error)) }
            }
            commits += 1
            if commits % Checkpointer.commitsPerCheckpoint == 0, let checkpointer {
                Task { await checkpointer.checkpointUnlessRunning() }
            }
        }
    }

    /// The endpoints each entry of `batch` is handed to if it is accepted now (none for a record),
    /// read once per batch in its transaction.
    private static func endpoints(of batch: [Entry], _ fanOut: AcceptFanOut, in db: Database) throws -> [[String]] {
        var keys: [(String, String)] = []
        var slots: [Int?] = []
        for entry in batch {
            if case .accept(let action, _, _) = entry {
                slots.append(keys.count)
                keys.append((action.response.category.rawValue, action.response.action.rawValue))
            } else {
                slots.append(nil)
            }
        }
        guard !keys.isEmpty else { return [] }
        let endpoints = try Row.fetchAll(db.cachedStatement(sql: EndpointTable.selectAll)).map(SQLiteActionStore.decodeEndpoint)
        let plan = fanOut.plan(keys, endpoints: endpoints)
        return slots.map { slot in slot.map { plan[$0] } ?? [] }
    }

    private static let insertDeliverySQL = EndpointTable.insertDelivery(.sqlite)
    private static let insertSQL = ActionTable.insertUnlessAnswered(.sqlite)
    private static let answerSQL = ActionTable.answerOfNotification(.sqlite)
    private static let markAnsweredSQL = BadgeTable.markAnswered(.sqlite)

    /// Records a sent notification unless its id is known; the user's badge after it.
    fileprivate static func record(_ sent: SentNotification, countingSince: Date, in db: Database) throws -> BadgeRecordResult {
        try db.cachedStatement(sql: insertSentSQL).execute(arguments: [
            sent.notificationID, sent.user, sent.category, sent.sentAt.timeIntervalSince1970,
        ])
        let created = db.changesCount == 1
        if !created {
            let owner = try String.fetchOne(db.cachedStatement(sql: userOfNotificationSQL), arguments: [sent.notificationID])
            guard owner == sent.user else { return .otherUser }
        }
        let badge = try Int.fetchOne(db.cachedStatement(sql: countSQL), arguments: [sent.user, countingSince.timeIntervalSince1970]) ?? 0
        return created ? .recorded(badge: badge) : .recordedBefore(badge: badge)
    }

    private static let insertSentSQL = BadgeTable.insertSent(.sqlite)
    private static let userOfNotificationSQL = BadgeTable.userOfNotification(.sqlite)
    private static let countSQL = BadgeTable.count(.sqlite)

    /// Inserts one response, handed to `endpoints` (its deliveries inserted with it; none: left
    /// pending for the in-process queue), or reports the answer already stored for its
    /// notification.
    fileprivate static func insert(_ action: NewResponse, payload: String, endpoints: [String], in db: Database) throws -> AcceptResult {
        let response = action.response
        let received = action.receivedAt.timeIntervalSince1970
        // Cached statements: compiled once per connection, not per insert.
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: [
            action.id, response.notificationID, response.category.rawValue, response.action.rawValue,
            response.user, response.userText, payload, received, action.answerableUntil?.timeIntervalSince1970, action.traceParent,
            endpoints.isEmpty ? 0 : 1,
        ])
        if db.changesCount == 1 {
            // In the same transaction: the notification leaves the user's badge, and the response
            // gets its deliveries.
            try db.cachedStatement(sql: Self.markAnsweredSQL).execute(arguments: [
                response.notificationID, response.user, response.category.rawValue, received,
            ])
            for endpointID in endpoints {
                try db.cachedStatement(sql: insertDeliverySQL).execute(arguments: [action.id, endpointID, received])
            }
            return .accepted(id: action.id)
        }
        guard let existing = try Row.fetchOne(db.cachedStatement(sql: Self.answerSQL), arguments: [response.notificationID])
        else { throw StoreError("insert of \(action.id) neither stored a row nor found the notification's answer") }
        return .answered(
            response, byID: existing["id"], action: ActionID(existing["action"] as String),
            text: existing["user_text"])
    }
}
