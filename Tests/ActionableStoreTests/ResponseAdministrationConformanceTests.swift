import ActionableCore
import ActionableStore
import ActionableTesting
import Foundation
import Testing

/// What operators ask of storage, on every driver: pages, re-queues, counts.
struct ResponseAdministrationConformanceTests {
    typealias Driver = StoreConformanceTests.Driver

    /// Accepts responses r-0…r-(count−1), received a second apart, in `category`.
    static func fill(_ store: any ActionStore, count: Int, from start: Int = 0, category: CategoryID = "invite") async throws {
        for index in start..<(start + count) {
            _ = try await store.accept(
                NewResponse(
                    id: String(format: "r-%03d", index),
                    response: ActionResponse(
                        category: category, action: "accept", notificationID: "n-\(index)", user: "u", payload: []),
                    receivedAt: Date(timeIntervalSince1970: 1_000 + Double(index))))
        }
    }

    /// Claims everything due and marks it `status` (delivered or dead).
    static func finish(_ store: any ActionStore, ids: [String], as status: ResponseStatus) async throws {
        let claimed = try await store.claimDue(now: Date(timeIntervalSince1970: 5_000), limit: 1_000, lease: 60, owner: "w")
        for action in claimed where ids.contains(action.id) {
            if status == .dead {
                try await store.markDead(id: action.id, owner: "w", reason: "upstream said 410")
            } else {
                try await store.markDelivered(id: action.id, owner: "w", at: Date(timeIntervalSince1970: 5_000))
            }
        }
        // What was claimed but not finished goes back to pending, due now.
        for action in claimed where !ids.contains(action.id) {
            try await store.reschedule(id: action.id, owner: "w", at: Date(timeIntervalSince1970: 5_000), error: "later")
        }
    }

    @Test(arguments: Driver.available)
    func pagesAreNewestFirstFilteredAndStableWhileNewResponsesArrive(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.fill(store, count: 7)
        try await Self.fill(store, count: 2, from: 100, category: "message")
        let first = try await store.responses(matching: ResponseFilter(category: "invite"), after: nil, limit: 3)
        #expect(first.items.map(\.id) == ["r-006", "r-005", "r-004"])
        // Newer responses arrive between pages: the next pages neither repeat nor skip.
        try await Self.fill(store, count: 3, from: 50)
        let second = try await store.responses(matching: ResponseFilter(category: "invite"), after: first.next, limit: 3)
        #expect(second.items.map(\.id) == ["r-003", "r-002", "r-001"])
        let third = try await store.responses(matching: ResponseFilter(category: "invite"), after: second.next, limit: 3)
        #expect(third.items.map(\.id) == ["r-000"])
        #expect(third.next == nil)
        // Time bounds: since is inclusive, until exclusive.
        let window = ResponseFilter(since: Date(timeIntervalSince1970: 1_002), until: Date(timeIntervalSince1970: 1_005))
        #expect(try await store.responses(matching: window, after: nil, limit: 10).items.map(\.id) == ["r-004", "r-003", "r-002"])
        #expect(try await store.responses(matching: ResponseFilter(category: "message"), after: nil, limit: 10).items.count == 2)
        // A page exactly as long as what is left has no next page.
        #expect(try await store.responses(matching: ResponseFilter(category: "message"), after: nil, limit: 2).next == nil)
    }

    @Test(arguments: Driver.available)
    func deadAndDeliveredResponsesAreQueuedAgainOncePendingOnesNever(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.fill(store, count: 4)
        try await Self.finish(store, ids: ["r-000", "r-001"], as: .dead)
        try await Self.finish(store, ids: ["r-002"], as: .delivered)
        #expect(try await store.responseCounts() == [.dead: 2, .delivered: 1, .pending: 1])
        #expect(
            try await store.responses(matching: ResponseFilter(status: .dead), after: nil, limit: 10).items.map(\.lastError) == [
                "upstream said 410", "upstream said 410",
            ])

        let at = Date(timeIntervalSince1970: 9_000)
        #expect(try await store.requeue(id: "r-000", at: at) == .queued)
        #expect(try await store.requeue(id: "r-000", at: at) == .alreadyPending)
        #expect(try await store.requeue(id: "r-003", at: at) == .alreadyPending)
        #expect(try await store.requeue(id: "r-missing", at: at) == .notFound)
        let queued = try #require(try await store.response(id: "r-000"))
        #expect(queued.status == .pending)
        #expect(queued.attempts == 0)
        #expect(queued.queuedAt == at)
        #expect(queued.nextAttemptAt == at)
        // Claimable again at once, under the same id.
        let claimed = try await store.claimDue(now: at, limit: 10, lease: 60, owner: "w2")
        #expect(claimed.map(\.id).contains("r-000"))

        #expect(try await store.requeue(matching: ResponseFilter(status: .delivered), at: at) == 1)
        #expect(try await store.requeue(matching: ResponseFilter(status: .pending), at: at) == 0)
        #expect(try await store.requeue(matching: ResponseFilter(), at: at) == 1)  // r-001, the last one dead
        #expect(try await store.responseCounts() == [.pending: 4])
    }

    @Test(arguments: Driver.available)
    func oneResponseQueuedByManyAtOnceIsQueuedOnce(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        try await Self.fill(store, count: 1)
        try await Self.finish(store, ids: ["r-000"], as: .dead)
        let results = try await withThrowingTaskGroup(of: RequeueResult.self) { group in
            for _ in 0..<20 { group.addTask { try await store.requeue(id: "r-000", at: Date(timeIntervalSince1970: 9_000)) } }
            return try await group.reduce(into: [RequeueResult]()) { $0.append($1) }
        }
        #expect(results.filter { $0 == .queued }.count == 1)
        #expect(results.filter { $0 == .alreadyPending }.count == 19)
    }
}

extension ResponseCursor {
    @Test static func aCursorRoundTripsAndGarbageIsNone() {
        let cursor = ResponseCursor(receivedAt: Date(timeIntervalSince1970: 1_763_856_000.123_456), id: "01a2-ü:x")
        #expect(ResponseCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("="))
        for garbage in ["", "!!!", "bm90IGEgY3Vyc29y", "OjE=", "MTIzOg"] { #expect(ResponseCursor(token: garbage) == nil) }
    }
}
