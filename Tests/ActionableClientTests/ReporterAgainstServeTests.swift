import ActionableClient
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

/// ActionReporter against a real `actionable serve`, each answer forwarded to a recording
/// upstream: nothing a reporter accepted is lost, and nothing is stored twice.
@Suite(.timeLimit(.minutes(2)))
struct ReporterAgainstServeTests {
    @Test func aReportMadeWhileTheServerIsDownIsDeliveredOnceByTheNextFlush() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let clock = TestClock()
            let reporter = fixture.reporter(port: port, options: .init(log: { _ in }, now: clock.read, random: { 0.5 }))
            let report = try await fixture.report("accept", notificationID: "n-offline")

            // Nobody listens yet: the report is kept, and stays in the report queue.
            guard case .kept(let reason, let next) = try await reporter.report(report) else {
                Issue.record("a report to a server that is down must be kept")
                return
            }
            #expect(reason.contains("network error"))
            // Full jitter: half (the random number) of the first backoff's 2 seconds.
            #expect(next == clock.read().addingTimeInterval(1))
            let pending = await reporter.pendingReports()
            #expect(pending.map(\.report) == [report])
            #expect(pending.first?.attempts == 1)

            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            // The reporter's own backoff has not passed, but flush() sends now: an app calls it at
            // launch or when it becomes active, and iOS may suspend it before any backoff ends.
            #expect(await reporter.nextAttemptDate() == clock.read().addingTimeInterval(1))
            let later = reporter
            let results = await later.flush()
            #expect(results.count == 1)
            guard case .delivered(let id, let duplicate) = results.first?.outcome else {
                Issue.record("expected the report delivered, got \(results)")
                return
            }
            #expect(!duplicate)
            #expect(await later.pendingReports().isEmpty)
            let forwarded = try await upstream.delivery(of: id)
            #expect(forwarded["action"] as? String == "accept")
            #expect(forwarded["notificationId"] as? String == "n-offline")
            #expect((forwarded["payload"] as? [String: Any])?["inviteId"] as? String == "42")
            #expect(await later.flush().isEmpty)
        }
    }

    @Test func theSameTapReportedTwiceIsStoredOnceAndAnotherAnswerIsAnsweredBefore() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let reporter = fixture.reporter(port: port)
            let userInfo = try await fixture.userInfo(notificationID: "n-twice")
            let accept = try ActionReport(
                userInfo: userInfo, categoryIdentifier: "invite", actionIdentifier: "accept", notificationIdentifier: "ios-1",
                userText: nil)

            let first = try await reporter.report(accept)
            let second = try await reporter.report(accept)
            guard case .delivered(let id, false) = first, case .delivered(let again, true) = second else {
                Issue.record("expected accepted then duplicate, got \(first) and \(second)")
                return
            }
            #expect(again == id)
            _ = try await upstream.delivery(of: id)
            // The server records the delivery once the upstream's answer is back: read the status
            // until it leaves pending (each read a real request; bounded).
            #expect(try await ClientFixture.statusAfterPending(id, port: port) == "delivered")

            // Another button on the same notification: 409, removed, never retried.
            let decline = try ActionReport(
                userInfo: userInfo, categoryIdentifier: "invite", actionIdentifier: "decline", notificationIdentifier: "ios-1",
                userText: nil)
            guard case .answeredBefore(let problem) = try await reporter.report(decline) else {
                Issue.record("another answer to an answered notification must be answered-before")
                return
            }
            #expect(problem.status == 409)
            #expect(problem.name == "already-answered")
            #expect(await reporter.pendingReports().isEmpty)
            #expect(await upstream.count(of: id) == 1)
        }
    }

    @Test func aForgedTokenIsRejectedOnceWithTheProblemAndLeavesTheReportQueue() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { _, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let lines = LogLines()
            let reporter = fixture.reporter(port: port, options: .init(log: lines.append))
            var report = try await fixture.report("accept", notificationID: "n-forged")
            // The token's signature, changed: a forgery.
            var parts = report.actionToken.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            report.actionToken = parts.joined(separator: ".")

            guard case .rejected(let problem) = try await reporter.report(report) else {
                Issue.record("a forged token must be rejected for good")
                return
            }
            #expect(problem.status == 401)
            #expect(problem.name.hasPrefix("token-"))
            #expect(await reporter.pendingReports().isEmpty)
            #expect(await reporter.flush().isEmpty)
            #expect(lines.all.contains { $0.contains("refused the invite.accept report for good") && $0.contains("401") })

            // Unknown to the catalog: 422, also rejected with the field at fault.
            var unknown = try await fixture.report("accept", notificationID: "n-unknown-action")
            unknown.action = "acept"
            guard case .rejected(let mismatch) = try await reporter.report(unknown) else {
                Issue.record("an action the catalog does not have must be rejected")
                return
            }
            #expect(mismatch.status == 422 || mismatch.status == 403)
        }
    }

    @Test func aProcessKilledAfterSavingLeavesAReportTheNextProcessDeliversOnce() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let userInfo = try await fixture.userInfo(notificationID: "n-killed")
            let token = try #require(userInfo["actionToken"] as? String)

            let probe = try ServerProcess(
                CommandLineRunner.binary.deletingLastPathComponent().appendingPathComponent("actionable-client-probe"),
                ["http://127.0.0.1:\(port)/", fixture.reportQueue.path, "invite", "maybe", token, #"{"inviteId":"42"}"#],
                in: fixture.directory)
            defer { probe.signal(SIGKILL) }
            _ = try await probe.output(containing: "saved ")
            probe.signal(SIGKILL)
            await probe.exit()
            #expect(probe.terminationReason == .uncaughtSignal)

            let reporter = fixture.reporter(port: port)
            #expect(await reporter.pendingReports().map(\.report.action) == ["maybe"])
            // Also as if the process died after the server stored it and before the file was
            // removed: the same file is sent twice, and the server stores it once.
            let saved = try #require(try FileManager.default.contentsOfDirectory(at: fixture.reportQueue, includingPropertiesForKeys: nil).first)
            let copy = try Data(contentsOf: saved)
            let results = await reporter.flush()
            guard case .delivered(let id, false) = results.first?.outcome else {
                Issue.record("expected the killed process's report delivered, got \(results)")
                return
            }
            try copy.write(to: saved)
            let again = await reporter.flush()
            #expect(again.first?.outcome == .delivered(responseID: id, duplicate: true))
            #expect(await reporter.pendingReports().isEmpty)
            let forwarded = try await upstream.delivery(of: id)
            #expect(forwarded["action"] as? String == "maybe")
            #expect(await upstream.count(of: id) == 1)
        }
    }

    @Test func theAppsOwnTokenIsSentAndAReportWithoutItIsKeptUntilTheAppSignsIn() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let key = "app=app-secret-of-at-least-thirty-two-bytes!"
            let server = try await fixture.serve(port: port, upstream: upstreamPort, extra: ["--app-jwt-key", key])
            defer { server.signal() }
            let signedIn = TokenBox()
            let reporter = fixture.reporter(port: port, options: .init(bearerToken: { signedIn.token }, log: { _ in }))
            let report = try await fixture.report("accept", notificationID: "n-app-token")

            guard case .kept(let reason, _) = try await reporter.report(report) else {
                Issue.record("without the app's token the report must wait for it")
                return
            }
            #expect(reason.contains("app-token"))

            signedIn.token = try await AppTokens(keys: [ActionTokenKey(parsing: key)]).mint(user: "alice", keyID: "app")
            let id = try #require(await reporter.pendingReports().first?.id)
            guard case .delivered(let responseID, false) = await reporter.send(id: id) else {
                Issue.record("with the app's token the report must be delivered")
                return
            }
            _ = try await upstream.delivery(of: responseID)
        }
    }
}

/// Log lines a reporter wrote.
final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.value }
    var append: @Sendable (String) -> Void { { [lines] line in lines.mutate { $0.append(line) } } }
}

/// The app's current login token.
final class TokenBox: Sendable {
    private let stored = Locked<String?>(nil)
    var token: String? {
        get { stored.value }
        set { stored.mutate { $0 = newValue } }
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    private let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var read: @Sendable () -> Date { { [now] in now.value } }
    func advance(by seconds: TimeInterval) { now.mutate { $0.addTimeInterval(seconds) } }
}

extension ReporterAgainstServeTests {
    /// The payload as iOS hands it over — parsed by JSONSerialization, numbers as NSNumber (an
    /// integer may come back as 3.0), strings unescaped — and as ActionReport re-encodes it,
    /// still matches the pld its token was minted with: a genuine tap is never refused.
    @Test func theClientsReencodingOfThePayloadMatchesItsToken() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { upstream, upstreamPort in
            let port = try ServerProcess.freePort()
            let server = try await fixture.serve(port: port, upstream: upstreamPort)
            defer { server.signal() }
            let reporter = fixture.reporter(port: port)
            var reports: [ActionReport] = []
            // An invite with an integer and escapes, and an order with an array.
            let invite = try await fixture.userInfo(
                set: ["inviteId=inv-42", "eventName=Dîner \"chez\" Zoë 😀\\n", "seats=3"], notificationID: "n-types")
            reports.append(
                try ActionReport(
                    userInfo: invite, categoryIdentifier: "invite", actionIdentifier: "accept", notificationIdentifier: "n-types",
                    userText: nil))
            // The integer as a double, as a JSON writer that prints 3.0 would leave it.
            var respelled = try await fixture.userInfo(set: ["inviteId=inv-43", "seats=3"], notificationID: "n-double")
            respelled["seats"] = NSNumber(value: 3.0)
            reports.append(
                try ActionReport(
                    userInfo: respelled, categoryIdentifier: "invite", actionIdentifier: "accept", notificationIdentifier: "n-double",
                    userText: nil))
            let order = try await fixture.userInfo(
                category: "order-shipped", set: ["orderId=o-1", #"items=[{"sku":"a","qty":2},1.5,null,true]"#], notificationID: "n-order")
            reports.append(
                try ActionReport(
                    userInfo: order, categoryIdentifier: "order-shipped", actionIdentifier: "com.apple.UNNotificationDefaultActionIdentifier",
                    notificationIdentifier: "n-order", userText: nil))
            for report in reports {
                guard case .delivered(let id, false) = try await reporter.report(report) else {
                    Issue.record("a genuine tap was not accepted: \(report)")
                    continue
                }
                _ = try await upstream.delivery(of: id)
            }
            #expect(await reporter.pendingReports().isEmpty)
        }
    }
}
