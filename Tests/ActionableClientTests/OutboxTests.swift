import ActionableClient
import Foundation
import Testing

/// The outbox on disk: what another process (or a crash) can leave in it never stops a flush.
struct OutboxTests {
    @Test func corruptAndForeignFilesAreMovedAsideWithALogLineAndTheRestIsDelivered() async throws {
        try await ScriptedServer.run { server, port in
            let outbox = ReporterStatusTests.outbox()
            defer { try? FileManager.default.removeItem(at: outbox) }
            let log = LogLines()
            let reporter = ReporterStatusTests.reporter(port: port, outbox: outbox, clock: TestClock(), log: log)
            let good = try await reporter.save(ReporterStatusTests.report)
            try Data("{ half a rep".utf8).write(to: outbox.appendingPathComponent("000000000000001-x.report"))
            try Data(#"{"format":"someone-else/9","report":{}}"#.utf8).write(to: outbox.appendingPathComponent("000000000000002-y.report"))
            try Data("notes".utf8).write(to: outbox.appendingPathComponent("README.txt"))
            try Data([0xff, 0x00, 0xfe]).write(to: outbox.appendingPathComponent("000000000000003-z.report"))

            let results = await reporter.flush()
            #expect(results.map(\.id) == [good])
            #expect(await server.count == 1)
            let quarantine = outbox.appendingPathComponent("quarantine")
            let moved = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
            #expect(moved.count == 4)
            #expect(moved.contains { $0.hasSuffix("README.txt") })
            #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path) == ["quarantine"])
            #expect(log.all.count == 4)
            #expect(log.all.contains { $0.contains("is not an outbox report") && $0.contains("moved to") })
            #expect(log.all.contains { $0.contains("has format \"someone-else/9\"") })
        }
    }

    @Test func aWriteThatDiedHalfwayIsNotAReportAndIsCleanedAtStart() throws {
        let outbox = ReporterStatusTests.outbox()
        defer { try? FileManager.default.removeItem(at: outbox) }
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        try Data(#"{"format":"actionable-re"#.utf8).write(to: outbox.appendingPathComponent(".tmp-1234"))
        _ = ActionReporter(endpoint: URL(string: "http://127.0.0.1:9/")!, outbox: outbox, options: .init(log: { _ in }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.path).isEmpty)
    }

    /// A full disk does not lose a tap: what cannot be saved is sent at once, without the
    /// outbox (best effort), and the failure is logged; save(_:) itself still throws.
    @Test func anOutboxThatCannotBeWrittenStillSendsOnce() async throws {
        try await ScriptedServer.run { server, port in
            let blocker = ReporterStatusTests.outbox()
            defer { try? FileManager.default.removeItem(at: blocker) }
            try Data("a file, not a directory".utf8).write(to: blocker)
            let log = LogLines()
            let reporter = ReporterStatusTests.reporter(port: port, outbox: blocker, clock: TestClock(), log: log)
            await #expect(throws: OutboxError.self) { try await reporter.save(ReporterStatusTests.report) }
            #expect(await reporter.report(ReporterStatusTests.report) == .delivered(responseID: "r-1", duplicate: false))
            #expect(await server.count == 1)
            #expect(log.all.contains { $0.contains("could not be saved") })
            #expect(await reporter.flush().isEmpty)
            #expect(try String(contentsOf: blocker, encoding: .utf8) == "a file, not a directory")
        }
    }

    @Test func savedReportsAreListedInTheOrderTheyWereSaved() async throws {
        let outbox = ReporterStatusTests.outbox()
        defer { try? FileManager.default.removeItem(at: outbox) }
        // A clock that stands still: names must still sort in the order of saves.
        let reporter = ActionReporter(
            endpoint: URL(string: "http://127.0.0.1:9/")!, outbox: outbox, options: .init(log: { _ in }, now: TestClock().read))
        var saved: [String] = []
        for action in ["a", "b", "c", "d", "e"] {
            var report = ReporterStatusTests.report
            report.action = action
            saved.append(try await reporter.save(report))
        }
        #expect(await reporter.pendingReports().map(\.report.action) == ["a", "b", "c", "d", "e"])
        #expect(await reporter.pendingReports().map(\.id) == saved)
    }
}
