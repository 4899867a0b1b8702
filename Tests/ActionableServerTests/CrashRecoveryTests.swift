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
