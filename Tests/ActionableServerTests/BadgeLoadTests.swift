import ActionableSQLite
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

/// The ledger under concurrent load, through real `serve` processes: exact counts on SQLite, on
/// two instances sharing PostgreSQL, and after kill -9.
@Suite(.timeLimit(.minutes(3)))
struct BadgeLoadTests {
    static func directory() throws -> (URL, ActionTokenKey) {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        return (directory, key)
    }

    @Test func hundredsOfSendsAndRetriedTapsAtOnceGiveTheExactCountOnSQLite() async throws {
        let (directory, key) = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let load = try await BadgeLoad.make(notifications: 300, users: 7, key: key)
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--backend-token", BadgeLoad.backendToken])
        defer { server.signal() }
        let acknowledged = await load.runAll(clients: 16, port: { _ in port })
        #expect(acknowledged.count == load.operations.count)
        #expect(try await load.badges(port: port) == load.expectedBadges)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
            "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
    func twoInstancesSharingPostgreSQLGiveTheExactCount() async throws {
        let (directory, key) = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let load = try await BadgeLoad.make(notifications: 300, users: 7, key: key)
        let ports = try [ServerProcess.freePort(), ServerProcess.freePort()]
        let extra = ["--storage", url, "--backend-token", BadgeLoad.backendToken]
        let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: extra)
        defer { first.signal() }
        let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: extra)
        defer { second.signal() }
        // Alternate instances, so a tap's copies and its send land on both.
        let acknowledged = await load.runAll(clients: 16, port: { ports[$0 % 2] })
        #expect(acknowledged.count == load.operations.count)
        #expect(try await load.badges(port: ports[0]) == load.expectedBadges)
        #expect(try await load.badges(port: ports[1]) == load.expectedBadges)
    }

    @Test func afterKillNineTheCountIsWhatTheAcknowledgedRequestsMakeIt() async throws {
        let (directory, key) = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let load = try await BadgeLoad.make(notifications: 240, users: 5, key: key)
        let operations = load.operations
        let port = try ServerProcess.freePort()
        let extra = ["--backend-token", BadgeLoad.backendToken]
        let server = try await ServerProcess.serve(in: directory, port: port, extra: extra)
        defer { server.signal() }
        let killAt = operations.count / 2
        let acknowledged = await load.runAll(clients: 16, port: { _ in port }) { count in
            if count == killAt { server.signal(SIGKILL) }
        }
        await server.exit()
        #expect(server.terminationReason == .uncaughtSignal)
        #expect(acknowledged.count >= killAt)
        #expect(acknowledged.count < operations.count)

        let restarted = try await ServerProcess.serve(in: directory, port: port, extra: extra)
        defer { restarted.signal() }
        // Every acknowledged send is counted unless a tap on it may have committed; every
        // acknowledged tap has left the count.
        let badges = try await load.badges(port: port)
        for user in 0..<load.users {
            let name = "\(load.prefix)-u\(user)"
            let mine = (0..<load.notifications).filter { load.user(of: $0) == name }
            let ackedSends = mine.filter { acknowledged.contains(.send(notification: $0)) }
            let ackedTaps = Set(mine.filter { n in (0..<3).contains { acknowledged.contains(.tap(notification: n, copy: $0)) } })
            let lower = ackedSends.filter { !load.tapped.contains($0) }.count
            let upper = mine.filter { !ackedTaps.contains($0) }.count
            let count = try #require(badges[name])
            #expect((lower...upper).contains(count), "\(name): \(count) not in \(lower)…\(upper)")
        }
        // The requests that were not acknowledged, sent again (they are idempotent): the count is
        // exactly the sends that were never answered, so nothing acknowledged was lost or doubled.
        for operation in operations where !acknowledged.contains(operation) {
            let status = await load.run(operation, port: port)
            #expect(BadgeLoad.acknowledged(operation, status: status), "\(operation) answered \(status) after the restart")
        }
        #expect(try await load.badges(port: port) == load.expectedBadges)
        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
    }
}
