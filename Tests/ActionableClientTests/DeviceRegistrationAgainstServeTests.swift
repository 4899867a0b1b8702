import ActionableClient
import ActionableTestSupport
import ActionableTokens
import ActionableWire
import Foundation
import InviteApp
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The app registers the token iOS hands it, against a real `actionable serve`.
@Suite(.timeLimit(.minutes(2)))
struct DeviceRegistrationAgainstServeTests {
    static func devices(of user: String, port: Int) async throws -> DeviceList {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/devices/\(user)")!)
        request.setValue("Bearer \(BadgeReadsAgainstServeTests.backendToken)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode(DeviceList.self, from: data)
    }

    @Test func theTokenIOSHandsTheAppIsRegisteredForItsUserAndANewOneBesideIt() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { _, upstreamPort in
            let port = try ServerProcess.freePort()
            let key = "app=app-secret-of-at-least-thirty-two-bytes!"
            let server = try await fixture.serve(
                port: port, upstream: upstreamPort,
                extra: ["--app-jwt-key", key, "--backend-token", BadgeReadsAgainstServeTests.backendToken])
            defer { server.signal() }
            let jwt = try await AppTokens(keys: [ActionTokenKey(parsing: key)]).mint(user: "alice", keyID: "app")
            let reporter = fixture.reporter(port: port, options: .init(bearerToken: { jwt }, log: { _ in }))

            // The bytes iOS hands didRegisterForRemoteNotificationsWithDeviceToken.
            let first = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })
            #expect(try await reporter.registerDevice(token: first, environment: .sandbox))
            #expect(try await reporter.registerDevice(token: first, environment: .sandbox) == false)  // every launch: known
            let second = Data((0..<32).map { UInt8(255 - $0) })
            #expect(try await reporter.registerDevice(token: second, environment: .production))

            let listed = try await Self.devices(of: "alice", port: port).items
            #expect(listed.map(\.token) == [first.map { String(format: "%02x", $0) }.joined(), second.map { String(format: "%02x", $0) }.joined()])
            #expect(listed.map(\.environment) == ["sandbox", "production"])

            // Without the app's token the server refuses, and says so.
            let anonymous = fixture.reporter(port: port)
            let refused = await #expect(throws: ServerProblem.self) { try await anonymous.registerDevice(token: first, environment: .sandbox) }
            #expect(refused?.status == 401)
        }
    }

    @Test func theGeneratedHookRegistersTheTokenTheAppDelegateIsHanded() async throws {
        let fixture = try ClientFixture()
        try await RecordingUpstream.run { _, upstreamPort in
            let port = try ServerProcess.freePort()
            let key = "app=app-secret-of-at-least-thirty-two-bytes!"
            let server = try await fixture.serve(
                port: port, upstream: upstreamPort,
                extra: ["--app-jwt-key", key, "--backend-token", BadgeReadsAgainstServeTests.backendToken])
            defer { server.signal() }
            let jwt = try await AppTokens(keys: [ActionTokenKey(parsing: key)]).mint(user: "bob", keyID: "app")
            let app = InviteAppDelegate(
                server: URL(string: "http://127.0.0.1:\(port)")!, reportQueue: fixture.reportQueue,
                options: .init(bearerToken: { jwt }, log: { _ in }))
            let token = Data((0..<32).map { UInt8($0 * 5 & 0xFF) })
            try await app.didRegisterForRemoteNotifications(deviceToken: token)
            let listed = try await Self.devices(of: "bob", port: port).items
            #expect(listed.map(\.token) == [token.map { String(format: "%02x", $0) }.joined()])
            // The tests are a debug build: the generated hook registers the token as sandbox.
            #expect(listed.map(\.environment) == ["sandbox"])
        }
    }
}
