import Foundation
import GRDB
import Testing

@testable import ActionableSQLite
@testable import ActionableStore

/// How SQLite runs each queue's claim (``QueueTable/claim(_:lock:)``): the due rows found through
/// the queue's index, then each looked up by its rowid. Naming the scope (an endpoint, a platform)
/// outside the select made SQLite scan the scope's whole index for the rowids instead — every
/// delivered row of the endpoint on every claim, which halved SQLite's end-to-end rate.
struct QueuePlanTests {
    @Test(arguments: [QueueTable.responses, .deliveries, .sends])
    func aClaimLooksUpEachDueRowByItsRowid(queue: QueueTable) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-plan-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await SQLiteActionStore(path: directory.appendingPathComponent("store.sqlite").path)
        // Owner, lease until, now, limit, then the scope's values.
        let scope = queue.scope.count
        let plan = try await store.pool.read { db in
            let values: [any DatabaseValueConvertible] = ["w", 2.0, 1.0, 10] + Array(repeating: "scope", count: scope)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(queue.claim(.sqlite))", arguments: StatementArguments(values)).map {
                row -> String in
                row["detail"]
            }
        }
        #expect(plan.first == "SEARCH \(queue.name) USING INTEGER PRIMARY KEY (rowid=?)", "\(plan)")
        #expect(plan.last?.hasPrefix("SEARCH \(queue.name) USING INDEX ") == true, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }
}
