import ActionableCore
import ActionableStore
import ActionableTesting
import Foundation
import Testing

/// The badge ledger's rules, on every driver.
struct BadgeLedgerConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static let epoch = Date(timeIntervalSince1970: 1_000)

    static func sent(_ id: String, to user: String = "alice", at seconds: TimeInterval = 1_000) -> SentNotification {
        SentNotification(notificationID: id, user: user, category: "invite", sentAt: Date(timeIntervalSince1970: seconds))
    }

    static func tap(_ id: String, user: String = "alice", action: ActionID = "accept", at seconds: TimeInterval = 1_100) -> NewResponse {
        NewResponse(
            id: UUID().uuidString,
            response: ActionResponse(category: "invite", action: action, notificationID: id, user: user, payload: [("inviteId", .string("1"))]),
            receivedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: Driver.available)
    func recordingIsIdempotentOnTheNotificationID(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.recordSent(Self.sent("n-1"), countingSince: Self.epoch) == .recorded(badge: 1))
        #expect(try await store.recordSent(Self.sent("n-2"), countingSince: Self.epoch) == .recorded(badge: 2))
        #expect(try await store.recordSent(Self.sent("n-1"), countingSince: Self.epoch) == .recordedBefore(badge: 2))
        #expect(try await store.recordSent(Self.sent("n-1", to: "bob"), countingSince: Self.epoch) == .otherUser)
        #expect(try await store.recordSent(Self.sent("n-3", to: "bob"), countingSince: Self.epoch) == .recorded(badge: 1))
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 2)
        #expect(try await store.badge(user: "bob", countingSince: Self.epoch) == 1)
        #expect(try await store.badge(user: "nobody", countingSince: Self.epoch) == 0)
        #expect(try await store.unreadTotal(countingSince: Self.epoch) == 3)
    }

    @Test(arguments: Driver.available)
    func anAcceptedAnswerReadsItsNotificationOnceHoweverOftenItIsRetried(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["n-1", "n-2", "n-3"] { _ = try await store.recordSent(Self.sent(id), countingSince: Self.epoch) }
        #expect(try await store.accept(Self.tap("n-1")).isAccepted)
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 2)
        // The same tap again (a duplicate), and another button (a conflict): nothing changes.
        _ = try await store.accept(Self.tap("n-1"))
        _ = try await store.accept(Self.tap("n-1", action: "decline"))
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 2)
        // Apple's "opened" and dismiss identifiers read their notifications too.
        #expect(try await store.accept(Self.tap("n-2", action: "com.apple.UNNotificationDefaultActionIdentifier")).isAccepted)
        #expect(try await store.accept(Self.tap("n-3", action: "com.apple.UNNotificationDismissActionIdentifier")).isAccepted)
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 0)
    }

    @Test(arguments: Driver.available)
    func anAnswerThatRacedItsRecordIsNeverCounted(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        #expect(try await store.accept(Self.tap("n-early")).isAccepted)
        #expect(try await store.recordSent(Self.sent("n-early"), countingSince: Self.epoch) == .recordedBefore(badge: 0))
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 0)
    }

    @Test(arguments: Driver.available)
    func readsHappenOnceAndTheCountIsNeverNegative(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for id in ["n-1", "n-2", "n-3"] { _ = try await store.recordSent(Self.sent(id), countingSince: Self.epoch) }
        _ = try await store.recordSent(Self.sent("n-bob", to: "bob"), countingSince: Self.epoch)
        let at = Date(timeIntervalSince1970: 1_200)
        #expect(try await store.markRead(user: "alice", notificationIDs: ["n-1", "n-1", "n-1"], at: at, countingSince: Self.epoch) == 2)
        #expect(try await store.markRead(user: "alice", notificationIDs: ["n-1"], at: at, countingSince: Self.epoch) == 2)
        // Unknown ids, and another user's, are left alone.
        #expect(try await store.markRead(user: "alice", notificationIDs: ["n-missing", "n-bob"], at: at, countingSince: Self.epoch) == 2)
        #expect(try await store.badge(user: "bob", countingSince: Self.epoch) == 1)
        #expect(try await store.markRead(user: "alice", notificationIDs: [], at: at, countingSince: Self.epoch) == 2)
        #expect(try await store.markAllRead(user: "alice", at: at, countingSince: Self.epoch) == 0)
        #expect(try await store.markAllRead(user: "alice", at: at, countingSince: Self.epoch) == 0)
        #expect(try await store.markAllRead(user: "nobody", at: at, countingSince: Self.epoch) == 0)
        // A tap on a read notification does not lower the count again.
        _ = try await store.accept(Self.tap("n-2"))
        #expect(try await store.badge(user: "alice", countingSince: Self.epoch) == 0)
        #expect(try await store.unreadTotal(countingSince: Self.epoch) == 1)
    }

    @Test(arguments: Driver.available)
    func unreadEntriesOlderThanTheLifetimeStopCounting(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        _ = try await store.recordSent(Self.sent("n-old", at: 1_000), countingSince: Self.epoch)
        _ = try await store.recordSent(Self.sent("n-new", at: 5_000), countingSince: Self.epoch)
        #expect(try await store.badge(user: "alice", countingSince: Date(timeIntervalSince1970: 1_000)) == 2)
        #expect(try await store.badge(user: "alice", countingSince: Date(timeIntervalSince1970: 1_001)) == 1)
        #expect(try await store.unreadTotal(countingSince: Date(timeIntervalSince1970: 5_001)) == 0)
        let recordedAgain = try await store.recordSent(Self.sent("n-new", at: 9_000), countingSince: Date(timeIntervalSince1970: 4_000))
        #expect(recordedAgain == .recordedBefore(badge: 1))
    }

    @Test(arguments: Driver.available)
    func concurrentSendsAndRetriedTapsGiveTheExactCount(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        // 200 sends; 120 of them tapped, each tap sent three times, and reads of 40 (twice), all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try await Self.resending { try await store.recordSent(Self.sent("n-\(index)"), countingSince: Self.epoch) } }
                if index < 120 {
                    for _ in 0..<3 {
                        group.addTask {
                            let tap = Self.tap("n-\(index)")
                            _ = try await Self.resending { try await store.accept(tap) }
                        }
                    }
                } else if index < 160 {
                    for _ in 0..<2 {
                        group.addTask {
                            _ = try await Self.resending {
                                try await store.markRead(user: "alice", notificationIDs: ["n-\(index)"], at: Self.epoch, countingSince: Self.epoch)
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // A read that ran before its record finds nothing to read: read them again now.
        let late = (120..<160).map { "n-\($0)" }
        #expect(try await store.markRead(user: "alice", notificationIDs: late, at: Self.epoch, countingSince: Self.epoch) == 40)
    }
}

extension BadgeLedgerConformanceTests {
    /// Runs `operation`, again while the store answers "past its deadline" (a 503 to a client,
    /// which sends the same request again): on a loaded machine 640 calls on one user's ledger may
    /// queue past PostgreSQL's deadlines, and every call here is idempotent — a send recorded, a
    /// tap accepted or a read marked that committed after its deadline must still count once.
    static func resending<Result: Sendable>(_ operation: @Sendable () async throws -> Result) async throws -> Result {
        for _ in 0..<5 {
            do {
                return try await operation()
            } catch let error as StoreError where error.description.contains("did not answer within") {
                continue
            }
        }
        return try await operation()
    }
}

extension AcceptResult {
    var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}
