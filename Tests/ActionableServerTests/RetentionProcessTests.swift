import ActionableCore
import ActionableSQLite
import ActionableStore
import ActionableTestSupport
import Foundation
import Testing

/// Retention in a real `actionable serve`: killed with -9 in the middle of a purge, the database
/// is sound, nothing pending went, and the next start finishes the purge.
struct RetentionProcessTests {
    static let old = Date().addingTimeInterval(-40 * 86400)
    static let recent = Date().addingTimeInterval(-86400)

    /// 3 000 old delivered, 200 old pending and 200 recent delivered responses, and 1 000 old
    /// unread (expired) badge entries.
    static func populate(_ store: SQLiteActionStore) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<3_400 {
                group.addTask {
                    let action = NewResponse(
                        id: "r-\(index)",
                        response: ActionResponse(category: "invite", action: "accept", notificationID: "n-\(index)", user: "u", payload: []),
                        receivedAt: index < 3_200 ? old : recent)
                    _ = try await store.accept(action)
                }
            }
            for index in 0..<1_000 {
                group.addTask {
                    let sent = SentNotification(notificationID: "unread-\(index)", user: "u", category: "invite", sentAt: old)
                    _ = try await store.recordSent(sent, countingSince: .distantPast)
                }
            }
            try await group.waitForAll()
        }
        for action in try await store.claimDue(now: Date(), limit: 10_000, lease: 600, owner: "setup") {
            let index = Int(action.id.dropFirst(2))!
            if (3_000..<3_200).contains(index) {
                try await store.reschedule(id: action.id, owner: "setup", at: old, error: "upstream down")
            } else {
                try await store.markDelivered(id: action.id, owner: "setup", at: index < 3_000 ? old : recent)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aKillDuringAPurgeLosesNothingAndTheNextStartFinishesIt() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(".actionable/actionable.sqlite").path
        do {
            let store = try await SQLiteActionStore(path: path)
            try await Self.populate(store)
            #expect(try await store.responseCounts() == [.pending: 200, .delivered: 3_200])
        }

        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port)
        // The first batch is committed before this line; more batches follow it.
        _ = try await server.output(containing: "retention purge under way")
        server.signal(SIGKILL)
        await server.exit()
        #expect(server.terminationReason == .uncaughtSignal)

        let afterKill = try await SQLiteActionStore(path: path)
        #expect(try await afterKill.integrityCheck() == "ok")
        let counts = try await afterKill.responseCounts()
        // No endpoint takes them: the server holds them (or has not claimed them yet).
        #expect((counts[.pending] ?? 0) + (counts[.held] ?? 0) == 200)
        #expect((200..<3_200).contains(counts[.delivered] ?? 0), "the first batch went, and not more than the old ones")
        // Every row left is whole: all of them page out and decode.
        let everything = try await afterKill.responses(matching: ResponseFilter(), after: nil, limit: 10_000)
        #expect(everything.items.count == 200 + (counts[.delivered] ?? 0))
        let unreadLeft = try await afterKill.unreadTotal(countingSince: .distantPast)

        // The next start finishes the purge.
        if counts[.delivered] != 200 || unreadLeft > 0 {
            let restarted = try await ServerProcess.serve(in: directory, port: port)
            _ = try await restarted.output(containing: "retention deleted")
            _ = await restarted.stop()
        }
        let finished = try await SQLiteActionStore(path: path)
        let finalCounts = try await finished.responseCounts()
        #expect((finalCounts[.pending] ?? 0) + (finalCounts[.held] ?? 0) == 200)
        #expect(finalCounts[.delivered] == 200 && finalCounts[.dead] == nil)
        #expect(try await finished.unreadTotal(countingSince: .distantPast) == 0)
        for index in 3_000..<3_200 {
            #expect([.pending, .held].contains(try await finished.response(id: "r-\(index)")?.status))
        }
        #expect(try await finished.integrityCheck() == "ok")
    }

    @Test(arguments: ["2x", "-1d", "forever", ""])
    func aRetentionThatIsNotADurationIsRefusedByName(value: String) async throws {
        let run = try await CommandLineRunner.run(["serve", "--port", "0", "--retention", value])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--retention"), "\(run.stderr)")
    }

    @Test(arguments: [("0", "retention 0: delivered and dead responses and badge entries are kept for good"), ("12h", "older than 12h are deleted")])
    func theRetentionInForceIsLogged(value: String, line: String) async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess.serve(in: directory, port: try ServeProcessTests.freePort(), extra: ["--retention", value])
        _ = try await server.output(containing: line)
        _ = await server.stop()
    }
}
