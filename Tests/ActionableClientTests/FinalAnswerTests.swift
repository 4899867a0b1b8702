import ActionableClient
import ActionableTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Only a final answer of an Actionable server ends a report: a wrong base URL, a proxy's HTML
/// page, a redirect or a 2xx without the server's body keeps it, with the reason and a log line
/// naming the likely configuration mistake; once the configuration is fixed, the tap is
/// delivered once.
struct FinalAnswerTests {
    /// What a proxy or a misconfigured host might answer in place of the server.
    static let impostors: [(String, ScriptedServer.Answer)] = [
        ("a proxy's HTML 404", .init(status: 404, headers: ["Content-Type": "text/html"], body: "<html><h1>Not Found</h1></html>")),
        ("a proxy's HTML 403", .init(status: 403, headers: ["Content-Type": "text/html"], body: "<html>Forbidden</html>")),
        ("a 2xx without the body", .init(status: 200, headers: ["Content-Type": "text/html"], body: "<html>OK</html>")),
        ("a 204", .init(status: 204)),
        ("a 405 after a lost POST", .init(status: 405, headers: ["Allow": "GET"])),
        ("a problem of another service", .problem(400, "invalid-request", "x").with(type: "https://example.com/problems/bad")),
    ]

    @Test func answersThatAreNotAnActionableServersKeepTheReportUntilTheConfigurationIsFixed() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            var kept = 0
            // Impostors: each answer keeps the report, with a configuration error logged.
            for (index, (name, answer)) in Self.impostors.enumerated() {
                kept += 1
                try await ScriptedServer.run { proxy, proxyPort in
                    await proxy.answer(answer)
                    let log = LogLines()
                    let reporter = fixture.reporter(port: proxyPort, options: .init(log: log.append))
                    let report = try await fixture.report("accept", notificationID: "n-proxy-\(index)")
                    guard case .kept(let reason, _) = await reporter.report(report) else {
                        Issue.record("\(name) must keep the report")
                        return
                    }
                    #expect(reason.contains("is endpoint the Actionable server's base URL"), "\(name): \(reason)")
                    #expect(log.all.contains { $0.hasPrefix("configuration error") }, "\(name)")
                    #expect(await reporter.pendingReports().last?.lastError == reason)
                }
            }
            // A wrong base URL on the real server: its 404 problem is not a final answer.
            let wrong = ActionReporter(
                endpoint: URL(string: "http://127.0.0.1:\(port)/api/")!, reportQueue: fixture.reportQueue, options: .init(log: { _ in }))
            let lost = try await fixture.report("accept", notificationID: "n-wrong-base")
            kept += 1
            guard case .kept(let reason, _) = await wrong.report(lost) else {
                Issue.record("a 404 of a wrong base URL must keep the report")
                return
            }
            #expect(reason.contains("404"))
            #expect(await wrong.pendingReports().count == kept)

            // Fixed: the server's base URL — given with /v1/actions, the natural mistake, which
            // is read as the base URL, not doubled. Every report is delivered, once.
            let fixed = ActionReporter(
                endpoint: URL(string: "http://127.0.0.1:\(port)/v1/actions")!, reportQueue: fixture.reportQueue, options: .init(log: { _ in }))
            #expect(fixed.endpoint.absoluteString == "http://127.0.0.1:\(port)/")
            let results = await fixed.flush()
            #expect(results.count == kept)
            for result in results {
                guard case .delivered(let id, false) = result.outcome else {
                    Issue.record("\(result.id) must be delivered once fixed: \(result.outcome)")
                    continue
                }
                _ = try await upstream.delivery(of: id)
                #expect(await upstream.count(of: id) == 1)
            }
            #expect(await fixed.pendingReports().isEmpty)
        }
    }

    /// A redirect is never followed: a 307 to the real server would re-POST the report there, a
    /// 302 would turn it into a GET. The 3xx keeps it; the real server saw nothing.
    @Test(arguments: [302, 307, 308])
    func aRedirectIsNotFollowed(status: Int) async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            try await ScriptedServer.run { proxy, proxyPort in
                await proxy.answer(.init(status: status, headers: ["Location": "http://127.0.0.1:\(port)/v1/actions"]))
                let reporter = fixture.reporter(port: proxyPort)
                let report = try await fixture.report("accept", notificationID: "n-redirect-\(status)")
                guard case .kept(let reason, _) = await reporter.report(report) else {
                    Issue.record("a \(status) must keep the report")
                    return
                }
                #expect(reason.contains("a redirect to http://127.0.0.1:\(port)/v1/actions"), "\(reason)")
                #expect(await proxy.count == 1)
            }
            // Nothing reached the real server; pointed at it, the report is delivered.
            let results = await fixture.reporter(port: port).flush()
            guard case .delivered(let id, false) = results.first?.outcome else {
                Issue.record("expected a first delivery, got \(results)")
                return
            }
            _ = try await upstream.delivery(of: id)
        }
    }

    /// A full disk (here: a report queue that is a file, so nothing can be written under it) does
    /// not stop a tap: it is sent at once, without the report queue, and the failure is logged.
    @Test func aReportThatCannotBeSavedIsSentAtOnce() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let blocker = fixture.directory.appendingPathComponent("not-a-directory")
            try Data("a file".utf8).write(to: blocker)
            let log = LogLines()
            let reporter = ActionReporter(
                endpoint: URL(string: "http://127.0.0.1:\(port)/")!, reportQueue: blocker, options: .init(log: log.append))
            guard case .delivered(let id, false) = await reporter.report(try fixture.report("accept", notificationID: "n-full-disk")) else {
                Issue.record("a report that cannot be saved must still be sent")
                return
            }
            _ = try await upstream.delivery(of: id)
            #expect(log.all.contains { $0.contains("could not be saved") })
            // With the server down as well, the outcome says the report is not kept anywhere.
            let down = ActionReporter(endpoint: URL(string: "http://127.0.0.1:9/")!, reportQueue: blocker, options: .init(log: { _ in }))
            guard case .unsaved = await down.report(try fixture.report("accept", notificationID: "n-full-disk-2")) else {
                Issue.record("an unsaved, undelivered report must say so")
                return
            }
        }
    }
}

extension ScriptedServer.Answer {
    /// The same answer with another problem type.
    func with(type: String) -> Self {
        var copy = self
        copy.body = copy.body.replacingOccurrences(of: "https://actionable.dev/problems/invalid-request", with: type)
        return copy
    }
}
