import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of a test's own (`scripts/postgres-test-cluster`), on loopback, that the
/// test may crash, cut off or stop without disturbing the suite's shared cluster.
public final class ThrowawayPostgres: Sendable {
    /// `postgres://postgres@127.0.0.1:PORT/actionable_test`.
    public let url: String
    /// The cluster's folder (its data, log and port).
    public let directory: String

    /// Whether the PostgreSQL server binaries are installed (the cluster can be started).
    public static var available: Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?.contains {
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
        } ?? false
    }

    /// Starts a new cluster (initdb, pg_ctl start, createdb): a few seconds.
    public init() async throws {
        let started = try await Self.script(["start"])
        var values: [String: String] = [:]
        for line in started.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { values[String(pair[0])] = String(pair[1]) }
        }
        guard let url = values["ACTIONABLE_TEST_POSTGRES_URL"], let directory = values["ACTIONABLE_TEST_POSTGRES_DIR"] else {
            throw RawConnection.Failure("scripts/postgres-test-cluster start printed no URL:\n\(started)")
        }
        self.url = url
        self.directory = directory
    }

    /// A crash: `pg_ctl restart -m immediate` (no checkpoint; recovery replays the WAL).
    public func crash() async throws { _ = try await Self.script(["crash", directory]) }
    /// Every server connection to the database ended (`pg_terminate_backend`), as a failover, a
    /// pooler's restart or an idle timeout does it.
    public func terminateConnections() async throws { _ = try await Self.script(["terminate", directory]) }
    /// The database goes down (`pg_ctl stop -m fast`).
    public func halt() async throws { _ = try await Self.script(["halt", directory]) }
    /// The database comes back on the same port.
    public func resume() async throws { _ = try await Self.script(["resume", directory]) }
    /// What `sql` returns on the cluster's database, as psql prints it (or why it could not run):
    /// what a failed test shows of the state it left.
    public func rows(_ sql: String) async -> String {
        do { return try await Self.script(["psql", directory, sql]) } catch { return "\(error)" }
    }
    /// Stops the cluster and removes its folder.
    public func remove() async { _ = try? await Self.script(["stop", directory]) }

    /// Runs scripts/postgres-test-cluster with `arguments`; its standard output, or a failure
    /// with what it printed.
    private static func script(_ arguments: [String]) async throws -> String {
        let script = CommandLineRunner.repository.appendingPathComponent("scripts/postgres-test-cluster")
        // Files, not pipes: the server pg_ctl starts keeps the descriptors it inherits open, and a
        // pipe's reader would wait for it to exit.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-script-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputFile = folder.appendingPathComponent("stdout")
        let errorFile = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        // system(3) on a thread of its own: it waits for the script's own pid (Foundation's Process
        // left the script a zombie here, its exit never reported, once pg_ctl had started a server).
        let quoted = ([script.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let command = (quoted + [">", outputFile.path, "2>", errorFile.path, "</dev/null"]).joined(separator: " ")
        let status = try await CommandLineRunner.offPool { system(command) }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw RawConnection.Failure("postgres-test-cluster \(arguments.joined(separator: " ")) failed: \(errors)")
        }
        return text
    }
}
