import ActionableAPNsTesting
import ActionableFCM
import ActionableFCMTesting
import ActionableTestSupport
import ActionableTokens
import ActionableWire
import Foundation
import JWTKit
import Logging
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `serve` process sending to a stand-in APNs and a stand-in FCM in the test process (HTTP/2
/// over TLS on loopback), with the provider key, the service account and the certificate written
/// where `serve` reads them.
struct SendHarness: Sendable {
    static let backendToken = "send-test-backend-token-0123456789abcdef"
    static let adminToken = "send-test-admin-token-0123456789abcdefgh"
    static let appKey = "app=app-secret-of-at-least-thirty-two-bytes!"
    static let logger = Logger(label: "apns-stand-in", factory: { _ in SwiftLogNoOpLogHandler() })

    let directory: URL
    let standIn: APNsStandIn
    let standInPort: Int
    let fcm: FCMStandIn
    let fcmPort: Int

    /// The `serve` flags that send to this stand-in.
    var sendingFlags: [String] {
        [
            "--apns-key-file", directory.appendingPathComponent("AuthKey_KEY1.p8").path, "--apns-key-id", "KEY1", "--apns-team-id", "TEAM",
            "--apns-topic", "com.example.app", "--apns-url", "https://127.0.0.1:\(standInPort)", "--apns-ca-file",
            directory.appendingPathComponent("stand-in.pem").path, "--backend-token", Self.backendToken, "--admin-token", Self.adminToken,
            "--app-jwt-key", Self.appKey, "--fcm-service-account", directory.appendingPathComponent("service-account.json").path,
            "--fcm-url", "https://127.0.0.1:\(fcmPort)", "--fcm-ca-file", directory.appendingPathComponent("stand-in.pem").path,
        ]
    }

    /// Runs `body` with a stand-in scripted with `unregistered` and `failures`, in a fresh
    /// directory holding the example categories.
    static func run(
        unregistered: [String: Date?] = [:], failures: [String: (status: Int, reason: String)] = [:], stalled: Set<String> = [],
        androidUnregistered: Set<String> = [], androidFailures: [String: FCMStandIn.Failure] = [:],
        _ body: @Sendable (SendHarness) async throws -> Void
    ) async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = ES256PrivateKey()
        let certificate = try StandInCertificate()
        try Data(key.pemRepresentation.utf8).write(to: directory.appendingPathComponent("AuthKey_KEY1.p8"))
        try Data(certificate.certificatePEM.utf8).write(to: directory.appendingPathComponent("stand-in.pem"))
        let standIn = await APNsStandIn(
            configuration: .init(
                providerKeys: ["KEY1": key.publicKey], teamID: "TEAM", unregistered: unregistered, failures: failures, stalled: stalled))
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try standIn.application(certificate: certificate, logger: logger) { portContinuation.yield($0) }
        // The stand-in FCM: its token endpoint is itself, so the account's token_uri is written once its port is known.
        let (fcmPorts, fcmContinuation) = AsyncStream.makeStream(of: Int.self)
        let (account, publicKey) = try FCMStandIn.makeServiceAccount(projectID: "demo-project", tokenURI: "https://127.0.0.1/token")
        let fcm = await FCMStandIn(
            configuration: .init(
                serviceAccountKey: try JWTKit.Insecure.RSA.PublicKey(pem: publicKey), keyID: account.privateKeyID,
                clientEmail: account.clientEmail, projectID: "demo-project", unregistered: androidUnregistered, failures: androidFailures))
        let fcmApp = try fcm.application(certificate: certificate, logger: logger) { fcmContinuation.yield($0) }
        let services = ServiceGroup(configuration: .init(services: [app, fcmApp], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            var fcmIterator = fcmPorts.makeAsyncIterator()
            let fcmPort = try #require(await fcmIterator.next())
            var written = account
            written.tokenURI = "https://127.0.0.1:\(fcmPort)/token"
            let encoder = JSONEncoder()
            try encoder.encode(written).write(to: directory.appendingPathComponent("service-account.json"))
            let outcome: Result<Void, any Error>
            do {
                try await body(SendHarness(directory: directory, standIn: standIn, standInPort: port, fcm: fcm, fcmPort: fcmPort))
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            try outcome.get()
        }
    }

    /// The app JWT of `user`.
    static func appJWT(_ user: String) async throws -> String {
        try await AppTokens(keys: [try ActionTokenKey(parsing: appKey)]).mint(user: user, keyID: "app")
    }

    /// One HTTP exchange with `serve` on `port`: the status and the body.
    static func call(
        _ method: String, _ path: String, port: Int, bearer: String? = backendToken, json: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data) {
        let answer = try await LoopbackCall.send(path, method: method, port: port, bearer: bearer, json: json, headers: headers)
        return (answer.status, answer.body)
    }

    /// Registers `token` for `user` through the app's endpoint.
    static func register(_ token: String, user: String, environment: String = "production", port: Int) async throws -> Int {
        try await call(
            "POST", "/v1/devices", port: port, bearer: try await appJWT(user),
            json: #"{"token":"\#(token)","environment":"\#(environment)"}"#
        ).status
    }

    /// Registers an Android device's FCM `token` for `user` through the app's endpoint.
    static func registerAndroid(_ token: String, user: String, port: Int) async throws -> Int {
        try await call(
            "POST", "/v1/devices", port: port, bearer: try await appJWT(user), json: #"{"token":"\#(token)","platform":"android"}"#
        ).status
    }

    /// Asks `serve` about `id` until `done` holds (each poll is a request; the time limit of the
    /// suite bounds it).
    static func report(
        of id: String, port: Int, until done: @Sendable (NotificationReport) -> Bool
    ) async throws -> NotificationReport {
        while true {
            let (status, body) = try await call("GET", "/v1/notifications/\(id)", port: port)
            if status == 200 {
                let report = try JSONDecoder().decode(NotificationReport.self, from: body)
                if done(report) { return report }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension NotificationReport {
    /// The copy of `token`.
    func device(_ token: String) -> NotificationDevice? { devices.first { $0.token == token } }
    /// Whether no copy is pending any more.
    var settled: Bool { devices.allSatisfy { $0.state != "pending" } }
}
