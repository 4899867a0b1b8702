import ActionableCore
import ActionableSQLite
import ActionableStore
import ActionableTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `actionable serve` as a process: it accepts, stops cleanly on SIGTERM, and what it accepted
/// is still there when it starts again.
struct ServeProcessTests {
    /// A free loopback port, from the kernel.
    static func freePort() throws -> Int { try ServerProcess.freePort() }

    static func post(_ body: String, port: Int) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    /// The body of alice's Accept on invite 42 (notification `notificationID`), its token minted
    /// by `actionable payload` in `directory`: the payload command and the server share the
    /// development key under .actionable/.
    static func acceptTap(notificationID: String, in directory: URL) async throws -> String {
        let payload = try await CommandLineRunner.run(
            [
                "payload", "invite", "--body", "b", "--set", "inviteId=42",
                "--user", "alice", "--notification-id", notificationID,
            ], in: directory)
        #expect(payload.status == 0, "\(payload.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(payload.stdout.utf8)) as? [String: Any]
        let token = try #require(object?["actionToken"] as? String)
        return #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#
    }

    @Test func acceptedResponsesSurviveARestartAndSIGTERMExitsZero() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = try await Self.acceptTap(notificationID: "n-restart", in: directory)

        let port = try Self.freePort()
        let first = try await ServerProcess.serve(in: directory, port: port)
        defer { first.signal() }
        let (status, accepted) = try await Self.post(body, port: port)
        #expect(status == 202)
        let id = try #require(accepted["id"] as? String)
        #expect(await first.stop() == 0)  // SIGTERM

        let second = try await ServerProcess.serve(in: directory, port: port)
        defer { second.signal() }
        let (againStatus, again) = try await Self.post(body, port: port)
        #expect(againStatus == 200)
        #expect(again["status"] as? String == "duplicate")
        #expect(again["id"] as? String == id)
        #expect(await second.stop() == 0)

        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
        #expect(try await store.response(id: id)?.response.user == "alice")
    }

    @Test func respondPostsWhatTheAppWouldAndExitsOneOnRefusal() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try await CommandLineRunner.run(
            ["payload", "invite", "--body", "b", "--set", "inviteId=42", "--user", "cy"],
            in: directory)
        try payload.stdout.write(to: directory.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)
        let port = try Self.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port)
        defer { server.signal() }
        let url = "http://127.0.0.1:\(port)"
        let accepted = try await CommandLineRunner.run(["respond", "accept", "--notification", "notification.json", "--url", url], in: directory)
        #expect(accepted.status == 0)
        #expect(accepted.stdout.hasPrefix("HTTP 202 "))
        let again = try await CommandLineRunner.run(["respond", "accept", "--notification", "notification.json", "--url", url], in: directory)
        #expect(again.stdout.hasPrefix("HTTP 200 "))
        #expect(again.stdout.contains("duplicate"))
        let other = try await CommandLineRunner.run(["respond", "decline", "--notification", "notification.json", "--url", url], in: directory)
        #expect(other.status == 1)
        #expect(other.stdout.hasPrefix("HTTP 409 "))
    }

    /// The README's walkthrough: invite-service, serve --forward, payload, respond → one RSVP.
    @Test(.timeLimit(.minutes(1)))
    func theReadmeWalkthroughRecordsOneRSVP() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "whsec_ZXhhbXBsZS1pbnZpdGUtc2VydmljZS1zZWNyZXQ="
        let servicePort = try Self.freePort()
        let service = try ServerProcess(
            CommandLineRunner.binary.deletingLastPathComponent().appendingPathComponent("invite-service"),
            ["--port", String(servicePort), "--secret", secret], in: directory)
        defer { service.signal() }
        _ = try await service.output(containing: "listening on")
        let port = try Self.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--forward", "invite.*=http://127.0.0.1:\(servicePort)/rsvp", "--forward-secret", secret,
            ])
        defer { server.signal() }
        let payload = try await CommandLineRunner.run(
            [
                "payload", "invite", "--body", "Team dinner", "--set", "inviteId=inv-42",
                "--user", "alice",
            ], in: directory)
        try payload.stdout.write(to: directory.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(port)"
        for _ in 0..<2 {  // the phone retries: one RSVP all the same
            let tap = try await CommandLineRunner.run(
                ["respond", "accept", "--notification", "notification.json", "--url", url],
                in: directory)
            #expect(tap.status == 0)
        }
        let log = try await service.output(containing: "recorded RSVP: alice accept inv-42")
        #expect(log.components(separatedBy: "recorded RSVP").count == 2)
        // The README's forged tap: the same notification with inv-99 is refused, nothing recorded.
        let forged = payload.stdout.replacingOccurrences(of: "inv-42", with: "inv-99")
        try forged.write(to: directory.appendingPathComponent("forged.json"), atomically: true, encoding: .utf8)
        let refused = try await CommandLineRunner.run(["respond", "accept", "--notification", "forged.json", "--url", url], in: directory)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("HTTP 422") && refused.stdout.contains("payload-mismatch"), "\(refused.stdout)")
    }

    /// Flags win over ACTIONABLE_* environment variables, which win over the --config file.
    @Test(.timeLimit(.minutes(1)))
    func settingsComeFromFlagsThenEnvironmentThenTheConfigFile() async throws {
        let ports = try (0..<3).map { _ in try Self.freePort() }
        let directory = try CommandLineRunner.temporaryDirectory(
            [
                "serve.json": #"{"port": \#(ports[0]), "admin-token": "from-file-0123456789abcdefghijklmnop"}"#
            ], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [([String], [String: String], Int)] = [
            (["serve", "--config", "serve.json"], [:], ports[0]),
            (["serve", "--config", "serve.json"], ["ACTIONABLE_PORT": String(ports[1])], ports[1]),
            (["serve", "--config", "serve.json", "--port", String(ports[2])], ["ACTIONABLE_PORT": String(ports[1])], ports[2]),
        ]
        for (arguments, environment, port) in cases {
            let server = try ServerProcess(CommandLineRunner.binary, arguments, in: directory, environment: environment)
            defer { server.signal() }
            _ = try await server.output(containing: "listening on 127.0.0.1:\(port)")
            _ = try await server.output(containing: "accepting action responses")
            // The admin token came from the file: the status endpoint exists and accepts it.
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions/unknown")!)
            request.setValue("Bearer from-file-0123456789abcdefghijklmnop", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
        }
        let bad = try await CommandLineRunner.run(["serve", "--config", "missing.json"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--config missing.json: no such file"))
    }
}
