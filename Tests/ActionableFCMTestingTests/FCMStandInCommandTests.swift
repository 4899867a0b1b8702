import ActionableFCM
import ActionableFCMTesting
import ActionableTestSupport
import Foundation
import Logging
import NIOSSL
import Testing

/// `actionable fcm-stand-in` as a process: it makes its certificate and a service account whose
/// token endpoint is itself, writes them where `serve` can read them, and takes a message sent
/// with that account.
struct FCMStandInCommandTests {
    @Test func failuresParseAndBadOnesNameTheForm() async throws {
        let parsed = try FCMStandIn.failure("abc:def=429:QUOTA_EXCEEDED")
        #expect(parsed.token == "abc:def" && parsed.failure == FCMStandIn.Failure(status: 429, code: "QUOTA_EXCEEDED"))
        for bad in ["abc=200:OK", "abc=429", "=429:QUOTA_EXCEEDED", "abc", "abc=429:"] {
            #expect(throws: StandInScriptError.self, "\(bad)") { try FCMStandIn.failure(bad) }
        }
        let refused = try await CommandLineRunner.run(["fcm-stand-in", "--fail", "abc=200:OK"])
        #expect(refused.status != 0 && refused.stderr.contains("TOKEN=STATUS:CODE"), "\(refused.stderr)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theCommandServesWithTheAccountItWrote() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(
            CommandLineRunner.binary, ["fcm-stand-in", "--port", "0", "--project-id", "demo", "--unregistered", "gone"], in: directory)
        defer { server.signal() }
        let log = try await server.output(containing: "GET /sent")
        let port = try #require(log.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        let folder = directory.appendingPathComponent(".actionable/fcm-stand-in")
        let accountFile = folder.appendingPathComponent("service-account.json")
        let account = try ServiceAccount.read(try Data(contentsOf: accountFile), from: accountFile.path)
        #expect(account.projectID == "demo" && account.tokenURI == "https://127.0.0.1:\(port)/token")
        #expect(try FileManager.default.attributesOfItem(atPath: accountFile.path)[.posixPermissions] as? Int == 0o600)
        let certificate = try String(contentsOf: folder.appendingPathComponent("certificate.pem"), encoding: .utf8)
        let client = try await FCMClient(
            configuration: .init(
                baseURL: "https://127.0.0.1:\(port)", trustedCertificates: try NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8))),
            account: account, logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
        let sent = await client.send(FCMMessage(token: "device-1", data: ["notificationId": "n-1"]))
        let gone = await client.send(FCMMessage(token: "gone", data: ["notificationId": "n-2"]))
        try await client.shutdown()
        guard case .sent = sent else {
            Issue.record("\(sent)")
            return
        }
        guard case .unregistered = gone else {
            Issue.record("\(gone)")
            return
        }
    }
}
