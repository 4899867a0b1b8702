import ActionableCore
import ActionableStore
import ActionableTesting
import Foundation
import Testing

/// Retention on every driver: what goes, what stays, in bounded batches.
struct RetentionConformanceTests {
    typealias Driver = StoreConformanceTests.Driver

    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    static func action(_ id: String, at seconds: TimeInterval, answerableUntil: TimeInterval? = nil) -> NewResponse {
        NewResponse(
            id: id,
            response: ActionResponse(category: "invite", action: "accept", notificationID: "n-\(id)", user: "u", payload: []),
            receivedAt: at(seconds), answerableUntil: answerableUntil.map(at))
    }

    /// Claims `id` (due at `seconds`) and records `status` for it at that time.
    static func finish(_ store: any ActionStore, _ id: String, as status: ResponseStatus, at seconds: TimeInterval) async throws {
        let claimed = try await store.claimDue(now: at(seconds), limit: 1_000, lease: 60, owner: "w")
        for action in claimed {
            if action.id != id {
                try await store.reschedule(id: action.id, owner: "w", at: at(action.nextAttemptAt.timeIntervalSince1970), error: "later")
            } else if status == .dead {
                try await store.markDead(id: id, owner: "w", reason: "upstream said 410")
            } else {
                try await store.markDelivered(id: id, owner: "w", at: at(seconds))
            }
        }
    }

    /// Responses of every state, old and new, against the cutoff at 5 000 (now 10 000).
    @Test(arguments: Driver.available)
    func onlyOldDeliveredAndDeadResponsesGoNeverPendingOrStillAnswerableOnes(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let responses: [(NewResponse, ResponseStatus?, TimeInterval)] = [
            (Self.action("old-pending", at: 1_000), nil, 0),
            (Self.action("old-delivered", at: 1_000), .delivered, 1_010),
            (Self.action("old-dead", at: 1_000), .dead, 1_020),
            (Self.action("delivered-lately", at: 1_000), .delivered, 6_000),  // delivered after the cutoff
            (Self.action("new-delivered", at: 6_000), .delivered, 6_010),
            (Self.action("new-dead", at: 6_000), .dead, 6_020),
            (Self.action("token-still-valid", at: 1_000, answerableUntil: 20_000), .delivered, 1_030),
            (Self.action("token-expired", at: 1_000, answerableUntil: 9_000), .delivered, 1_040),
        ]
        for (action, _, _) in responses { #expect(try await store.accept(action) == .accepted(id: action.id)) }
        for (action, status, time) in responses {
            if let status { try await Self.finish(store, action.id, as: status, at: time) }
        }
        // Dead long ago, queued again by an operator after the cutoff, and dead again: its last change is new.
        #expect(try await store.accept(Self.action("requeued-lately", at: 1_000)) == .accepted(id: "requeued-lately"))
        try await Self.finish(store, "requeued-lately", as: .dead, at: 1_060)
        #expect(try await store.requeue(id: "requeued-lately", at: Self.at(6_000)) == .queued)
        try await Self.finish(store, "requeued-lately", as: .dead, at: 6_000)
        #expect(try await store.responseCounts() == [.pending: 1, .delivered: 5, .dead: 3])

        let cutoff = PurgeCutoff(responsesBefore: Self.at(5_000), badgeEntriesBefore: Self.at(0), now: Self.at(10_000))
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount(responses: 3, badgeEntries: 0))
        for gone in ["old-delivered", "old-dead", "token-expired"] { #expect(try await store.response(id: gone) == nil) }
        for kept in ["old-pending", "delivered-lately", "new-delivered", "new-dead", "token-still-valid", "requeued-lately"] {
            #expect(try await store.response(id: kept) != nil, "\(kept) was deleted")
        }
        #expect(try await store.responseCounts() == [.pending: 1, .delivered: 3, .dead: 2])
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount())

        // A pending response is never deleted, however old: not even one queued again long ago.
        #expect(try await store.requeue(id: "delivered-lately", at: Self.at(1_100)) == .queued)
        let later = PurgeCutoff(responsesBefore: Self.at(50_000), badgeEntriesBefore: Self.at(0), now: Self.at(60_000))
        #expect(try await store.purge(later, limit: 100) == PurgeCount(responses: 4, badgeEntries: 0))
        #expect(try await store.responseCounts() == [.pending: 2])
        #expect(try await store.pendingCount() == 2)
    }

    @Test(arguments: Driver.available)
    func readAndExpiredBadgeEntriesGoUnreadRecentOnesStay(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let since = Self.at(0)
        for (id, sent) in [("expired", 1_000.0), ("read-long-ago", 1_000), ("read-lately", 1_000), ("unread-new", 6_000)] {
            _ = try await store.recordSent(
                SentNotification(notificationID: id, user: "alice", category: "invite", sentAt: Self.at(sent)), countingSince: since)
        }
        _ = try await store.markRead(user: "alice", notificationIDs: ["read-long-ago"], at: Self.at(2_000), countingSince: since)
        _ = try await store.markRead(user: "alice", notificationIDs: ["read-lately"], at: Self.at(6_000), countingSince: since)
        // Answered by a tap at 1 000: recorded read by the accept.
        _ = try await store.accept(Self.action("tapped", at: 1_000))
        #expect(try await store.badge(user: "alice", countingSince: since) == 2)

        let cutoff = PurgeCutoff(responsesBefore: Self.at(0), badgeEntriesBefore: Self.at(5_000), now: Self.at(10_000))
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount(responses: 0, badgeEntries: 3))
        #expect(try await store.badge(user: "alice", countingSince: since) == 1)  // "expired" is gone; "unread-new" stays
        // The read one that stayed is still read: recording it again does not count it.
        let again = SentNotification(notificationID: "read-lately", user: "alice", category: "invite", sentAt: Self.at(1_000))
        #expect(try await store.recordSent(again, countingSince: since) == .recordedBefore(badge: 1))
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount())
    }

    @Test(arguments: Driver.available)
    func aPurgeDeletesAtMostItsLimitOfEachTable(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        for index in 0..<7 { _ = try await store.accept(Self.action("r\(index)", at: 1_000 + Double(index))) }
        let claimed = try await store.claimDue(now: Self.at(2_000), limit: 100, lease: 60, owner: "w")
        for action in claimed { try await store.markDelivered(id: action.id, owner: "w", at: Self.at(2_000)) }
        let cutoff = PurgeCutoff(retention: 1_000, badgeLifetime: 500, now: Self.at(3_001))
        #expect(cutoff.badgeEntriesBefore == Self.at(2_001))
        var batches: [PurgeCount] = []
        while batches.last != PurgeCount() { batches.append(try await store.purge(cutoff, limit: 3)) }
        #expect(batches.map(\.responses) == [3, 3, 1, 0])
        #expect(batches.map(\.badgeEntries) == [3, 3, 1, 0])
        #expect(try await store.responseCounts() == [:])
    }

    /// Unregistered devices go once unregistered before the cutoff; active ones never. Sent
    /// notifications go with their copies once older than the cutoff and the tokens' 7 days,
    /// unless a copy is still pending.
    @Test(arguments: Driver.available)
    func unregisteredDevicesAndFinishedNotificationsGo(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let phone = SendQueueConformanceTests.phone
        let tablet = SendQueueConformanceTests.tablet
        let devices = try await SendQueueConformanceTests.devices(store)  // registered at 10 and 20
        #expect(try await store.markUnregistered(token: tablet, since: nil, at: Self.at(30)))
        _ = try await store.recordNotification(SendQueueConformanceTests.notification("n-done", at: 100), devices: devices)
        _ = try await store.recordNotification(SendQueueConformanceTests.notification("n-waiting", at: 100), devices: devices)
        _ = try await store.recordNotification(SendQueueConformanceTests.notification("n-new", at: 2_000_000), devices: devices)
        let claimed = try await store.claimDueSends(now: Self.at(200), limit: 10, lease: 60, owner: "w")
        for send in claimed where send.notification.notificationID == "n-done" {
            try await store.finishSend(notificationID: "n-done", token: send.token, owner: "w", outcome: .sent(status: 200), at: Self.at(201))
        }
        // 8 days after 100 s, a retention of 1 000 s: n-done goes, n-waiting (copies pending) and n-new stay.
        let now = Self.at(100 + 8 * 86_400)
        let cutoff = PurgeCutoff(responsesBefore: now.addingTimeInterval(-1_000), badgeEntriesBefore: Self.at(0), now: now)
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount(devices: 1, notifications: 1))
        #expect(try await store.notification(id: "n-done") == nil)
        #expect(try await store.notification(id: "n-waiting")?.sends.count == 2)
        #expect(try await store.notification(id: "n-new") != nil)
        #expect(try await store.devices(of: "alice").map(\.token) == [phone])
        #expect(try await store.purge(cutoff, limit: 100) == PurgeCount())
        // Within the tokens' 7 days, even a short retention keeps a finished notification.
        _ = try await store.recordNotification(SendQueueConformanceTests.notification("n-recent", at: now.timeIntervalSince1970), devices: [])
        let soon = now.addingTimeInterval(86_400)
        #expect(
            try await store.purge(PurgeCutoff(responsesBefore: soon.addingTimeInterval(-10), badgeEntriesBefore: Self.at(0), now: soon), limit: 100)
                == PurgeCount())
    }
}
