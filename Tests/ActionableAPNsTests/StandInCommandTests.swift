import ActionableAPNs
import ActionableAPNsTesting
import ActionableTestSupport
import ActionableWire
import Foundation
import JWTKit
import Logging
import NIOSSL
import Testing

/// `actionable apns-stand-in` as a process: it makes its certificate and provider key, writes
/// them where `serve` can read them, and takes a notification signed with that key.
struct StandInCommandTests {
    @Test func scriptsParseAndBadOnesNameTheForm() throws {
        let token = String(repeating: "ab", count: 32)
        #expect(try StandInScript.unregistered(token) == (token, nil))
        #expect(try StandInScript.unregistered("\(token)@1800000000123").since == Date(timeIntervalSince1970: 1_800_000_000.123))
        #expect(try StandInScript.unregistered("\(token)@2027-01-15T08:00:00Z").since == Date(timeIntervalSince1970: 1_800_000_000))
        let failure = try StandInScript.failure("\(token)=400:BadDeviceToken")
        #expect(failure.token == token && failure.status == 400 && failure.reason == "BadDeviceToken")
        for bad in ["\(token)=200:OK", "\(token)=400", "nothex=400:BadDeviceToken", "\(token)"] {
            #expect(throws: StandInScript.Invalid.self) { try StandInScript.failure(bad) }
        }
        #expect(throws: StandInScript.Invalid.self) { try StandInScript.unregistered("\(token)@yesterday") }
    }

    @Test(.timeLimit(.minutes(1)))
    func theCommandServesWithWhatItWrote() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(
            CommandLineRunner.binary, ["apns-stand-in", "--port", "0", "--key-id", "KEY9", "--team-id", "TEAM"], in: directory)
        defer { server.signal() }
        let log = try await server.output(containing: "GET /sent")
        let port = try #require(log.firstMatch(of: /127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
        let folder = directory.appendingPathComponent(".actionable/apns-stand-in")
        let keyPEM = try String(contentsOf: folder.appendingPathComponent("AuthKey_KEY9.p8"), encoding: .utf8)
        let certificate = try String(contentsOf: folder.appendingPathComponent("certificate.pem"), encoding: .utf8)
        let permissions = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("AuthKey_KEY9.p8").path)[.posixPermissions]
        #expect(permissions as? Int == 0o600)
        let token = await ProviderToken(key: try ES256PrivateKey(pem: keyPEM), keyID: "KEY9", teamID: "TEAM")
        let client = APNsClient(
            configuration: .init(
                topic: "com.example.app", baseURL: "https://127.0.0.1:\(port)",
                trustedCertificates: try NIOSSLCertificate.fromPEMBytes(Array(certificate.utf8))),
            token: token, logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
        let device = String(repeating: "ab", count: 32)
        let answer = await client.send(
            APNsNotification(
                deviceToken: device, payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8),
                id: APNsNotification.id(notificationID: "n1", deviceToken: device)), environment: .production)
        try await client.shutdown()
        #expect(answer == .sent)
    }
}
