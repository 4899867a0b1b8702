import ActionableTestSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Testing

/// README's "Sending from the server", command by command, with real processes: the stand-in
/// APNs, `serve` sending to it, `devices register`, `send --wait`, the stand-in's last payload,
/// `respond`, and the badge before and after the tap.
@Suite(.timeLimit(.minutes(2)))
struct SendWalkthroughTests {
    static let backendToken = "walkthrough-backend-token-0123456789abcdef"
    static let appKey = "app=walkthrough-app-secret-0123456789abcdefgh"

    static func badge(port: Int) async throws -> String {
        try await String(decoding: SendHarness.call("GET", "/v1/badge/alice", port: port, bearer: backendToken).body, as: UTF8.self)
    }

    @Test func theReadmeWalkthroughSendsAndTheTapLowersTheBadge() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let standInPort = try ServerProcess.freePort()
        let standIn = try ServerProcess(
            CommandLineRunner.binary,
            ["apns-stand-in", "--port", String(standInPort), "--key-id", "STANDIN01", "--team-id", "TEAM1"], in: directory)
        defer { standIn.signal() }
        _ = try await standIn.output(containing: "GET /sent")
        let keys = ".actionable/apns-stand-in"
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--backend-token", Self.backendToken, "--app-jwt-key", Self.appKey, "--apns-key-file", "\(keys)/AuthKey_STANDIN01.p8",
                "--apns-key-id", "STANDIN01", "--apns-team-id", "TEAM1", "--apns-topic", "com.example.invites",
                "--apns-url", "https://127.0.0.1:\(standInPort)", "--apns-ca-file", "\(keys)/certificate.pem",
            ])
        defer { server.signal() }
        let url = "http://127.0.0.1:\(port)"
        let device = String(repeating: "6a", count: 32)

        let registered = try await CommandLineRunner.run(
            ["devices", "register", device, "--user", "alice", "--environment", "sandbox", "--app-jwt-key", Self.appKey, "--url", url],
            in: directory)
        #expect(registered.status == 0 && registered.stdout.contains("registered \(device) for alice (sandbox)"), "\(registered.stderr)")

        let sent = try await CommandLineRunner.run(
            [
                "send", "invite", "--user", "alice", "--title", "Dinner?", "--body", "Sam invited you", "--set", "inviteId=inv-42",
                "--badge", "auto", "--backend-token", Self.backendToken, "--url", url, "--wait",
            ], in: directory)
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("to 1 device") && sent.stdout.contains("sent  HTTP 200"), "\(sent.stdout)")

        // What the phone received: the stand-in's last payload, over HTTP/2 with its certificate.
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(directory.appendingPathComponent("\(keys)/certificate.pem").path))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let fetched: Result<String, any Error>
        do {
            let response = try await http.execute(HTTPClientRequest(url: "https://127.0.0.1:\(standInPort)/sent/last"), timeout: .seconds(30))
            fetched = .success(String(buffer: try await response.body.collect(upTo: 8192)))
        } catch {
            fetched = .failure(error)
        }
        try await http.shutdown()  // whatever happened: a client left running stops the test process
        let notification = try fetched.get()
        #expect(notification.contains(#""inviteId":"inv-42""#) && notification.contains(#""badge":1"#), "\(notification)")
        try notification.write(to: directory.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)

        #expect(try await Self.badge(port: port) == #"{"badge":1}"#)
        let tap = try await CommandLineRunner.run(
            ["respond", "accept", "--notification", "notification.json", "--user", "alice", "--app-jwt-key", Self.appKey, "--url", url],
            in: directory)
        #expect(tap.status == 0 && tap.stdout.contains("HTTP 202"), "\(tap.stdout)")
        #expect(try await Self.badge(port: port) == #"{"badge":0}"#)

        let listed = try await CommandLineRunner.run(
            ["devices", "list", "alice", "--backend-token", Self.backendToken, "--url", url], in: directory)
        #expect(listed.stdout.contains(device) && listed.stdout.contains("active"), "\(listed.stdout)")
        let removed = try await CommandLineRunner.run(
            ["devices", "remove", device, "--backend-token", Self.backendToken, "--url", url], in: directory)
        #expect(removed.status == 0 && removed.stdout.contains("removed \(device)"))
        let none = try await CommandLineRunner.run(["devices", "list", "alice", "--backend-token", Self.backendToken, "--url", url], in: directory)
        #expect(none.stdout.contains("alice has no devices"), "\(none.stdout)")
    }
}
