import ActionableClient
import ActionableWire
import Foundation
import Testing

/// What a reporter does with each kind of answer, against a scripted server: kept answers wait
/// for their time (the server's `Retry-After`, else backoff), final ones leave the report queue.
@Suite(.timeLimit(.minutes(1)))
struct ReporterStatusTests {
    static let report = ActionReport(
        category: "invite", action: "accept", actionToken: "h.p.s", payload: ["inviteId": .string("42")])

    static func reportQueue() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("actionable-outbox-\(UUID().uuidString)")
    }

    static func reporter(port: Int, reportQueue: URL, clock: TestClock, log: LogLines = LogLines()) -> ActionReporter {
        ActionReporter(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, reportQueue: reportQueue,
            // A generous request time: some tests hold the server's answer while the suite runs beside them.
            options: .init(requestTimeout: 120, log: log.append, now: clock.read, random: { 0.5 }))
    }

    @Test func a429sRetryAfterIsHonouredToTheSecond() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let clock = TestClock()
            let reporter = Self.reporter(port: port, reportQueue: reportQueue, clock: clock)
            await server.answer(.problem(429, "overloaded", "too many accepts in progress", headers: ["Retry-After": "30"]))

            guard case .kept(let reason, let next) = try await reporter.report(Self.report) else {
                Issue.record("a 429 must keep the report")
                return
            }
            #expect(reason.contains("429 overloaded"))
            #expect(next == clock.read().addingTimeInterval(30))  // not the 1 s the backoff would give
            clock.advance(by: 29)
            #expect(await reporter.flush().isEmpty)
            #expect(await server.count == 1)
            clock.advance(by: 1)
            let results = await reporter.flush()
            #expect(results.map(\.outcome) == [.delivered(responseID: "r-1", duplicate: false)])
            #expect(await server.count == 2)
            #expect(await reporter.pendingReports().isEmpty)
        }
    }

    @Test func anHTTPDateRetryAfterIsHonouredToo() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let clock = TestClock()  // 2027-01-15T08:00:00Z
            let reporter = Self.reporter(port: port, reportQueue: reportQueue, clock: clock)
            await server.answer(.problem(503, "storage-unavailable", "storage is down", headers: ["Retry-After": "Fri, 15 Jan 2027 08:02:00 GMT"]))
            let outcome = try await reporter.report(Self.report)
            #expect(outcome == .kept(reason: "503 storage-unavailable: storage is down", nextAttempt: clock.read().addingTimeInterval(120)))
        }
    }

    @Test func transientFailuresBackOffWithJitterAndCountTheirAttempts() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let clock = TestClock()
            let reporter = Self.reporter(port: port, reportQueue: reportQueue, clock: clock)
            await server.answer(
                .init(status: 503, body: "<html>Bad gateway</html>"), .problem(408, "timeout", "slow"), .init(status: 500), .accepted)
            let start = clock.read()

            let first = try await reporter.report(Self.report)
            #expect(first == .kept(reason: "503 about:blank: <html>Bad gateway</html>", nextAttempt: start.addingTimeInterval(1)))
            clock.advance(by: 1)
            #expect(await reporter.flush().first?.outcome == .kept(reason: "408 timeout: slow", nextAttempt: start.addingTimeInterval(3)))
            clock.advance(by: 2)
            #expect(await reporter.flush().first?.outcome == .kept(reason: "500 about:blank: ", nextAttempt: start.addingTimeInterval(7)))
            let pending = try #require(await reporter.pendingReports().first)
            #expect(pending.attempts == 3)
            #expect(pending.lastError == "500 about:blank: ")
            clock.advance(by: 4)
            #expect(await reporter.flush().first?.outcome == .delivered(responseID: "r-1", duplicate: false))
        }
    }

    @Test(arguments: [400, 403, 413, 415, 422])
    func otherClientErrorsAreRejectedWithTheProblem(status: Int) async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let log = LogLines()
            let reporter = Self.reporter(port: port, reportQueue: reportQueue, clock: TestClock(), log: log)
            await server.answer(
                .init(
                    status: status, headers: ["Content-Type": "application/problem+json"],
                    body:
                        #"{"type":"https://actionable.dev/problems/catalog-mismatch","title":"Mismatch","status":\#(status),"detail":"unknown action","errors":[{"pointer":"/action","detail":"no such action"}]}"#
                ))
            guard case .rejected(let problem) = try await reporter.report(Self.report) else {
                Issue.record("\(status) must reject the report")
                return
            }
            #expect(problem.status == status)
            #expect(problem.name == "catalog-mismatch")
            #expect(problem.errors == [.init(pointer: "/action", detail: "no such action")])
            #expect(await reporter.pendingReports().isEmpty)
            #expect(log.all.count == 1)
        }
    }

    @Test func concurrentFlushesNeverSendOneReportTwiceAtOnce() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let reporter = Self.reporter(port: port, reportQueue: reportQueue, clock: TestClock())
            let ids = [try await reporter.save(Self.report), try await reporter.save(Self.report)]
            await server.hold()
            let first = Task { await reporter.flush() }
            try await server.arrivals(1)  // the first flush is sending the first report, and waits
            // Another flush, and a direct send, skip the report in flight and take the next.
            let second = Task { await reporter.flush() }
            try await server.arrivals(2)
            #expect(await reporter.send(id: ids[0]) == nil)
            #expect(await reporter.send(id: ids[1]) == nil)
            await server.release()
            let results = await first.value + second.value
            #expect(results.map(\.id).sorted() == ids.sorted())
            #expect(results.allSatisfy { $0.outcome == .delivered(responseID: "r-1", duplicate: false) })
            #expect(await server.count == 2)
        }
    }

    @Test func theBearerTokenGoesInTheAuthorizationHeader() async throws {
        try await ScriptedServer.run { server, port in
            let reportQueue = Self.reportQueue()
            defer { try? FileManager.default.removeItem(at: reportQueue) }
            let reporter = ActionReporter(
                endpoint: URL(string: "http://127.0.0.1:\(port)/")!, reportQueue: reportQueue,
                options: .init(bearerToken: { "app.jwt.value" }, log: { _ in }))
            _ = try await reporter.report(Self.report)
            let request = try #require(await server.requests.first)
            #expect(request.authorization == "Bearer app.jwt.value")
            #expect(request.body.contains(#""actionToken":"h.p.s""#))
        }
    }
}
