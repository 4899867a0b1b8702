import ActionableCore
import ActionableSQLite
import ActionableStore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// kill -9 under concurrent load: everything that got a 202 was committed.
struct CrashRecoveryTests {
    @Test(.timeLimit(.minutes(2)))
    func everyAcceptedResponseSurvivesKillNine() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The server will use the development key in this directory; mint with it here.
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let tokens = try await ActionTokens(keys: [key])
        let bodies = try await (0..<240).asyncMap { index in
            let token = try await tokens.mint(
                user: "u\(index)", notificationID: "n-\(index)", category: "invite", payload: ActionsEndpointTests.inviteDigest("\(index)"))
            return #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"\#(index)"}}"#
        }

        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port)
        defer { server.signal() }
        // 16 clients post concurrently; the server is killed once 80 answers are in.
        let accepted = Accepted()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    for index in stride(from: client, to: bodies.count, by: 16) {
                        guard let (status, json) = try? await ServeProcessTests.post(bodies[index], port: port) else { continue }
                        if status == 202, let id = json["id"] as? String { await accepted.add(index, id) }
                        if await accepted.count == 80 { server.signal(SIGKILL) }
                    }
                }
            }
        }
        await server.exit()
        #expect(server.terminationReason == .uncaughtSignal)
        let survivors = await accepted.all
        #expect(survivors.count >= 80)

        let restarted = try await ServerProcess.serve(in: directory, port: port)
        defer { restarted.signal() }
        for (index, id) in survivors {
            let (status, json) = try await ServeProcessTests.post(bodies[index], port: port)
            #expect(status == 200, "response \(index) accepted as \(id) before the crash")
            #expect(json["id"] as? String == id)
        }
        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
    }

    /// The charts' counts per minute under kill -9: what was flushed is in storage after the
    /// restart, once (SQLite sound); what was counted after the last flush is the one thing lost
    /// (a tally, never a tap: every tap is stored before its 202).
    @Test(.timeLimit(.minutes(2)))
    func flushedCountsSurviveKillNine() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let tokens = try await ActionTokens(keys: [key])
        let bodies = try await (0..<8).asyncMap { index in
            let token = try await tokens.mint(
                user: "u\(index)", notificationID: "n-count-\(index)", category: "invite", payload: ActionsEndpointTests.inviteDigest("\(index)"))
            return #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"\#(index)"}}"#
        }
        let admin = "crash-admin-token-0123456789abcdefghijkl"
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", admin])
        defer { server.signal() }
        for body in bodies.prefix(5) { #expect(try await ServeProcessTests.post(body, port: port).0 == 202) }
        // The admin page adds this instance's counts to storage before it reads them.
        let page = try await CatalogReloadProcessTests.get("/admin", port: port, bearer: admin)
        #expect(page.body.contains(#"data-series="accepted" data-total="5""#))
        for body in bodies.suffix(3) { #expect(try await ServeProcessTests.post(body, port: port).0 == 202) }
        server.signal(SIGKILL)
        await server.exit()
        #expect(server.terminationReason == .uncaughtSignal)

        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
        let now = ActivityMinute(Date())
        let counted = try await store.activity([.accepted, .tap], from: now.advanced(by: -60), to: now, byMinute: false)
        #expect(counted.first { $0.series == .accepted }?.count == 5, "the flushed counts, once: \(counted)")
        #expect(counted.first { $0.series == .tap }?.subject == "invite.accept")
        let restarted = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", admin])
        defer { restarted.signal() }
        for body in bodies { #expect(try await ServeProcessTests.post(body, port: port).0 == 200, "every tap survived") }
        let after = try await CatalogReloadProcessTests.get("/admin", port: port, bearer: admin)
        #expect(after.body.contains(#"data-series="accepted" data-total="5""#), "duplicates are not counted as accepted")
    }

    actor Accepted {
        private(set) var all: [(Int, String)] = []
        var count: Int { all.count }
        func add(_ index: Int, _ id: String) { all.append((index, id)) }
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
