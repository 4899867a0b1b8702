import ActionableClient
import Foundation
import Testing

/// The report queue on disk: what another process (or a crash) can leave in it never stops a flush.
struct ReportQueueTests {
    @Test func corruptAndForeignFilesAreMovedAsideWithALogLineAndTheRestIsDelivered() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = ReporterStatusTests.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let log = LogLines()
            let reporter = ReporterStatusTests.reporter(port: port, reportQueue: reportQueue, clock: TestClock(), log: log)
            let good = try await reporter.save(ReporterStatusTests.report)
            try Data("{ half a rep".utf8).write(to: reportQueue.appendingPathComponent("000000000000001-x.report"))
            try Data(#"{"format":"someone-else/9","report":{}}"#.utf8).write(to: reportQueue.appendingPathComponent("000000000000002-y.report"))
            try Data("notes".utf8).write(to: reportQueue.appendingPathComponent("README.txt"))
            try Data([0xff, 0x00, 0xfe]).write(to: reportQueue.appendingPathComponent("000000000000003-z.report"))

            let results = await reporter.flush()
            #expect(results.map(\.id) == [good])
            #expect(await server.count == 1)
            let quarantine = reportQueue.appendingPathComponent("quarantine")
            let moved = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
            #expect(moved.count == 4)
            #expect(moved.contains { $0.hasSuffix("README.txt") })
            #expect(try FileManager.default.contentsOfDirectory(atPath: reportQueue.path) == ["quarantine"])
            #expect(log.all.count == 4)
            #expect(log.all.contains { $0.contains("is not a report this queue wrote") && $0.contains("moved to") })
            #expect(log.all.contains { $0.contains("has format \"someone-else/9\"") })
        }
    }

    @Test func aWriteThatDiedHalfwayIsNotAReportAndIsCleanedAtStart() throws {
        let reportQueue = ReporterStatusTests.reportQueue()
        defer { try? FileManager.default.removeItem(at: reportQueue) }
        try FileManager.default.createDirectory(at: reportQueue, withIntermediateDirectories: true)
        try Data(#"{"format":"actionable-re"#.utf8).write(to: reportQueue.appendingPathComponent(".tmp-1234"))
        _ = ActionReporter(endpoint: URL(string: "http://127.0.0.1:9/")!, reportQueue: reportQueue, options: .init(log: { _ in }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: reportQueue.path).isEmpty)
    }

    /// A full disk does not lose a tap: what cannot be saved is sent at once, without the
    /// report queue (best effort), and the failure is logged; save(_:) itself still throws.
    @Test func aReportQueueThatCannotBeWrittenStillSendsOnce() async throws {
        try await ScriptedServer.run { server, port in
            let blocker = ReporterStatusTests.reportQueue()
            defer { try? FileManager.default.removeItem(at: blocker) }
            try Data("a file, not a directory".utf8).write(to: blocker)
            let log = LogLines()
            let reporter = ReporterStatusTests.reporter(port: port, reportQueue: blocker, clock: TestClock(), log: log)
            await #expect(throws: ReportQueueError.self) { try await reporter.save(ReporterStatusTests.report) }
            #expect(await reporter.report(ReporterStatusTests.report) == .delivered(responseID: "r-1", duplicate: false))
            #expect(await server.count == 1)
            #expect(log.all.contains { $0.contains("could not be saved") })
            #expect(await reporter.flush().isEmpty)
            #expect(try String(contentsOf: blocker, encoding: .utf8) == "a file, not a directory")
        }
    }

    @Test func savedReportsAreListedInTheOrderTheyWereSaved() async throws {
        let reportQueue = ReporterStatusTests.reportQueue()
        defer { try? FileManager.default.removeItem(at: reportQueue) }
        // A clock that stands still: names must still sort in the order of saves.
        let reporter = ActionReporter(
            endpoint: URL(string: "http://127.0.0.1:9/")!, reportQueue: reportQueue, options: .init(log: { _ in }, now: TestClock().read))
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
