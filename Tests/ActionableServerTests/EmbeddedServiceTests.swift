import ActionableCore
import ActionableRouter
import ActionableService
import ActionableTestSupport
import ActionableTokens
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import ServiceLifecycle
import Testing

/// `ActionableService` embedded in a Swift program, in this process: what `actionable serve`
/// runs, with a delivery handler of the program's own.
struct EmbeddedServiceTests {
    static let key = try! ActionTokenKey(parsing: "k1=" + String(repeating: "embedded-secret-", count: 3))
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The body of an app's tap on `action` for a notification of `user`, signed with `key`.
    static func tap(user: String, notification: String, action: String = "accept") async throws -> String {
        let tokens = try await ActionTokens(keys: [key])
        let token = try await tokens.mint(
            user: user, notificationID: notification, category: "invite", payload: ActionsEndpointTests.inviteDigest("42"))
        return #"{"category":"invite","action":"\#(action)","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#
    }

    /// Runs `service` in a service group while `body` runs with the bound port; shuts it down
    /// gracefully afterwards.
    static func withRunning<T: Sendable>(
        _ make: (@escaping @Sendable (Int) async -> Void) async throws -> ActionableService,
        _ body: @Sendable (ActionableService, Int) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let service = try await make { portContinuation.yield($0) }
        let group = ServiceGroup(services: [service], logger: quiet)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            await service.waitUntilReady()
            do {
                let result = try await body(service, port)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    /// In memory, on a free port, with the test key: the configuration of an embedded service.
    static func configuration(categories: URL) -> ActionableConfiguration {
        var configuration = ActionableConfiguration()
        configuration.categories = categories.path
        configuration.port = 0
        configuration.storage = "memory:"
        configuration.tokenKeys = [key]
        return configuration
    }

    static func get(_ url: String, client: HTTPClient = .shared) async throws -> String {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    static func post(_ body: String, to url: String, client: HTTPClient = .shared) async throws -> (UInt, String) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(10))
        return (response.status.code, String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    @Test(.timeLimit(.minutes(1)))
    func anEmbeddedServiceAcceptsATapAndRunsItsOwnHandler() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = Self.configuration(categories: directory.appendingPathComponent("Categories"))
        let (handled, handledContinuation) = AsyncStream<ActionResponse>.makeStream()

        let user = try await Self.withRunning({ onRunning in
            try await ActionableService(configuration: configuration, logger: Self.quiet, onServerRunning: onRunning) {
                routes in
                routes.on("invite", "accept") { response, _ in
                    handledContinuation.yield(response)
                    return .done
                }
            }
        }) { _, port in
            let (status, body) = try await Self.post(
                try await Self.tap(user: "alice", notification: "n-embedded"), to: "http://127.0.0.1:\(port)/v1/actions")
            #expect(status == 202, "\(body)")
            var iterator = handled.makeAsyncIterator()
            return await iterator.next()?.user
        }
        #expect(user == "alice")
    }

    @Test func aConfigurationThatCannotWorkIsRefusedBeforeAnythingStarts() async throws {
        var configuration = ActionableConfiguration()
        configuration.forwards = [ForwardRoute(pattern: "*", url: "http://127.0.0.1:9/")]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.forwardSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        configuration.storage = "mysql://db/x"
        let error = await #expect(throws: (any Error).self) {
            _ = try await ActionableService(configuration: configuration, catalog: Catalog([]), logger: Self.quiet)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("sqlite:"))
        #expect(throws: ConfigurationError.self) { try ForwardRoute(parsing: "invite.*=ftp://x") }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTapIsServedOverHTTPSWithTheConfiguredCertificate() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        // Waited for on a thread of its own (ServerProcess), never by blocking the cooperative pool.
        let openssl = try ServerProcess(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ], in: directory)
        try #require(await openssl.exit() == 0)

        var configuration = ActionableConfiguration()
        configuration.categories = directory.appendingPathComponent("Categories").path
        configuration.port = 0
        configuration.storage = "memory:"
        configuration.tokenKeys = [Self.key]
        configuration.tls = .init(certificate: certificate, key: key)

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        // A client that offers TLS 1.1 at most: the server speaks 1.2 and 1.3 only.
        var legacy = tls
        legacy.maximumTLSVersion = .tlsv11
        legacy.minimumTLSVersion = .tlsv1
        var legacyConfiguration = HTTPClient.Configuration()
        legacyConfiguration.tlsConfiguration = legacy
        let legacyClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: legacyConfiguration)
        let outcome = await Result(catching: {
            try await Self.withRunning({ onRunning in
                try await ActionableService(configuration: configuration, logger: Self.quiet, onServerRunning: onRunning)
            }) { _, port in
                let tap = try await Self.tap(user: "bo", notification: "n-tls")
                let (status, body) = try await Self.post(tap, to: "https://127.0.0.1:\(port)/v1/actions", client: client)
                #expect(status == 202, "\(body)")
                // Plain HTTP to the TLS port gets no answer.
                await #expect(throws: (any Error).self) {
                    _ = try await Self.post(tap, to: "http://127.0.0.1:\(port)/v1/actions", client: client)
                }
                // TLS 1.0 and 1.1 are refused at the handshake.
                await #expect(throws: (any Error).self) {
                    _ = try await Self.post(tap, to: "https://127.0.0.1:\(port)/v1/actions", client: legacyClient)
                }
            }
        })
        try await client.shutdown()
        try await legacyClient.shutdown()
        try outcome.get()
    }

    @Test func aBrokenCertificateFileIsNamedInTheError() async throws {
        var configuration = ActionableConfiguration()
        configuration.storage = "memory:"
        configuration.tokenKeys = [Self.key]
        configuration.tls = .init(certificate: "/nonexistent/cert.pem", key: "/nonexistent/key.pem")
        let error = await #expect(throws: ConfigurationError.self) {
            _ = try await ActionableService(configuration: configuration, catalog: Catalog([]), logger: Self.quiet)
        }
        #expect(error?.description.contains("/nonexistent/cert.pem") == true)
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`, thrown or returned.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
