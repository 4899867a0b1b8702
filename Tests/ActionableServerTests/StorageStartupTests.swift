import ActionableTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Start-up that tells the truth: `serve` listens before storage is reachable, says once what
/// is wrong, answers `/readyz` 503 meanwhile, and becomes ready without a restart.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
        "needs PostgreSQL's server binaries (scripts/test starts a cluster when it has them)"))
struct StorageStartupTests {
    static func get(_ path: String, port: Int) async throws -> (Int, String, String?) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.value(forHTTPHeaderField: "Retry-After"))
    }

    /// Starts a PostgreSQL cluster on `port` with `scripts/postgres-test-cluster`; returns its directory.
    /// The script is read on threads of its own (ServerProcess), not on the cooperative pool. Its
    /// last line says the cluster is up; its exit is not awaited, since the server it started
    /// keeps the script's output open (and Foundation waits for that).
    static func startCluster(port: Int) async throws -> String {
        let script = CommandLineRunner.repository.appendingPathComponent("scripts/postgres-test-cluster")
        let process = try ServerProcess(script, ["start", String(port)], in: CommandLineRunner.repository)
        let prefix = "export ACTIONABLE_TEST_POSTGRES_DIR="
        let output = try await process.output(containing: prefix)
        let line = try #require(output.components(separatedBy: "\n").first { $0.hasPrefix(prefix) })
        return String(line.dropFirst(prefix.count))
    }

    /// Stops the cluster in `directory`.
    static func stopCluster(_ directory: String) async throws {
        let script = CommandLineRunner.repository.appendingPathComponent("scripts/postgres-test-cluster")
        await (try ServerProcess(script, ["stop", directory], in: CommandLineRunner.repository)).exit()
    }

    @Test(.timeLimit(.minutes(2)))
    func serveListensWithPostgresDownAndBecomesReadyWhenItComesUp() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tap = try await ServeProcessTests.acceptTap(notificationID: "n-startup", in: directory)

        let databasePort = try ServeProcessTests.freePort()
        let port = try ServeProcessTests.freePort()
        let storage = "postgres://postgres:hunter2@127.0.0.1:\(databasePort)/actionable_test?sslmode=disable"
        let server = try ServerProcess(
            CommandLineRunner.binary, ["serve", "--port", String(port), "--storage", storage],
            in: directory)
        defer { server.signal() }
        _ = try await server.output(containing: "listening on")
        let warned = try await server.output(containing: "is not reachable")

        let (health, _, _) = try await Self.get("/healthz", port: port)
        #expect(health == 200)
        let (notReady, reason, retryAfter) = try await Self.get("/readyz", port: port)
        #expect(notReady == 503)
        // The answer says storage is not ready and nothing more: the database's host, port and
        // user stay in the log (below), out of reach of whoever asks.
        #expect(reason.contains("the storage is not ready"), "\(reason)")
        for secretish in ["127.0.0.1", String(databasePort), "postgres", "hunter2"] {
            #expect(!reason.contains(secretish), "\(reason)")
        }
        #expect(retryAfter == "5")
        let (refused, _) = try await ServeProcessTests.post(tap, port: port)
        #expect(refused == 503)
        // One warning line, the password redacted, and no driver chatter.
        let warnings = warned.components(separatedBy: "\n").filter { $0.contains("is not reachable") }
        #expect(warnings.count == 1, "\(warned)")
        #expect(warnings.first?.contains("warning") == true)
        #expect(warnings.first?.contains("127.0.0.1:\(databasePort)") == true)
        #expect(!warned.contains("hunter2"))

        let clusterDirectory = try await Self.startCluster(port: databasePort)
        let outcome = await Result(catching: {
            _ = try await server.output(containing: "is reachable now")
            let (ready, _, _) = try await Self.get("/readyz", port: port)
            #expect(ready == 200)
            let (accepted, body) = try await ServeProcessTests.post(tap, port: port)
            #expect(accepted == 202, "\(body)")
            #expect(await server.stop() == 0)
        })
        try await Self.stopCluster(clusterDirectory)
        try outcome.get()
    }

    @Test(.timeLimit(.minutes(1)))
    func withAStorageTimeoutServeGivesUpWithExitOne() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let databasePort = try ServeProcessTests.freePort()
        let server = try ServerProcess(
            CommandLineRunner.binary,
            [
                // Port 0: the listener takes a free port itself, so no other test can take it first.
                "serve", "--port", "0", "--storage-timeout", "1s",
                "--storage", "postgres://postgres@127.0.0.1:\(databasePort)/x?sslmode=disable",
            ], in: directory)
        defer { server.signal() }
        #expect(await server.exit() == 1)
        let log = try await server.output(containing: "--storage-timeout")
        #expect(log.contains("was not reachable within 1 s"), "\(log)")
        #expect(log.contains("127.0.0.1:\(databasePort)"))
    }
}
