import ActionableAPNs
import ActionableAPNsTesting
import ActionableTestSupport
import ActionableWire
import AsyncHTTPClient
import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOFoundationEssentialsCompat
import NIOHTTP1
import NIOSSL
import ServiceLifecycle
import Testing

/// The sender against the stand-in, over real HTTP/2 and TLS on loopback.
struct StandInTests {
    static let device = String(repeating: "ab", count: 32)
    static let logger = Logger(label: "apns-test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs a stand-in and a client trusting it; `body` gets both.
    static func withStandIn(
        unregistered: [String: Date?] = [:], failures: [String: (status: Int, reason: String)] = [:], senderClock: TestClock = TestClock(),
        standInClock: TestClock? = nil, connections: Int = 2, goAwayAfter: Int? = nil, stalled: Set<String> = [],
        timestampTexts: [String: String] = [:], timeout: Duration = .seconds(120),
        _ body: @Sendable (APNsClient, APNsStandIn, ProviderToken) async throws -> Void
    ) async throws {
        let key = ES256PrivateKey()
        let certificate = try StandInCertificate()
        let standIn = await APNsStandIn(
            configuration: .init(
                providerKeys: ["KEY1": key.publicKey], teamID: "TEAM", unregistered: unregistered, failures: failures,
                goAwayAfter: goAwayAfter, stalled: stalled, timestampTexts: timestampTexts, now: (standInClock ?? senderClock).function))
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try standIn.application(certificate: certificate, logger: logger) { port in portContinuation.yield(port) }
        // The stand-in runs in a service group of its own and is shut down gracefully once the
        // client has closed its connections (a cancelled HTTP/2 server leaves its channels behind).
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var ports = portStream.makeAsyncIterator()
            let port = try #require(await ports.next())
            let token = await ProviderToken(key: key, keyID: "KEY1", teamID: "TEAM", now: senderClock.function)
            let client = APNsClient(
                configuration: .init(
                    topic: "com.example.app", baseURL: "https://127.0.0.1:\(port)",
                    trustedCertificates: try NIOSSLCertificate.fromPEMBytes(Array(certificate.certificatePEM.utf8)),
                    connections: connections, timeout: timeout),  // 120 s by default: the whole suite may run beside it
                token: token, logger: logger)
            let outcome = await outcome { try await body(client, standIn, token) }
            try await client.shutdown()
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            try outcome.get()
        }
    }

    static func notification(_ id: String, to device: String = device, collapseID: String? = nil) -> APNsNotification {
        APNsNotification(
            deviceToken: device, payload: Array(#"{"aps":{"alert":"Dinner?","category":"invite"},"inviteId":"42"}"#.utf8),
            id: APNsNotification.id(notificationID: id, deviceToken: device), collapseID: collapseID)
    }

    @Test func aNotificationArrivesWithEveryHeader() async throws {
        try await Self.withStandIn { client, standIn, _ in
            let notification = Self.notification("n1", collapseID: "invite-42")
            #expect(await client.send(notification, environment: .production) == .sent)
            let received = await standIn.received.notifications
            #expect(received.count == 1)
            let first = try #require(received.first)
            #expect(first.deviceToken == Self.device && first.topic == "com.example.app" && first.pushType == "alert")
            #expect(first.priority == 10 && first.collapseID == "invite-42")
            #expect(first.apnsID == notification.id.uuidString.lowercased())
            #expect(first.payload == String(decoding: notification.payload, as: UTF8.self))
            // Over HTTP/2, and GET /sent lists what it took.
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try #require(client.configuration.trustedCertificates))
            let url = try #require(client.configuration.baseURL) + "/sent"
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
            let fetched: Result<(isHTTP2: Bool, body: ByteBuffer), any Error>
            do {
                let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                fetched = .success((response.version == .http2, try await response.body.collect(upTo: 1 << 20)))
            } catch {
                fetched = .failure(error)
            }
            try await http.shutdown()  // whatever happened: a client left running stops the test process
            let (isHTTP2, body) = try fetched.get()
            #expect(isHTTP2)
            let listed = try JSONDecoder().decode([ReceivedNotification].self, from: Data(buffer: body))
            #expect(listed == received)
        }
    }

    @Test func aThousandConcurrentSendsShareOneProviderToken() async throws {
        try await Self.withStandIn { client, standIn, token in
            let answers = await withTaskGroup(of: APNsAnswer.self) { group in
                for index in 0..<1_000 { group.addTask { await client.send(Self.notification("n\(index)"), environment: .production) } }
                return await group.reduce(into: [APNsAnswer]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0 == .sent })
            #expect(await standIn.received.notifications.count == 1_000)
            #expect(await standIn.received.requests >= 1_000)  // a copy resent after a lost answer is not delivered twice
            #expect(await token.made == 1)
        }
    }

    @Test func appleAnswersAreReadAsTheyAreScripted() async throws {
        let gone = String(repeating: "01", count: 32)
        let sandbox = String(repeating: "02", count: 32)
        let busy = String(repeating: "03", count: 32)
        let down = String(repeating: "04", count: 32)
        let since = Date(timeIntervalSince1970: 1_699_999_000)
        try await Self.withStandIn(
            unregistered: [gone: since],
            failures: [sandbox: (400, "BadDeviceToken"), busy: (429, "TooManyRequests"), down: (503, "ServiceUnavailable")]
        ) { client, standIn, _ in
            #expect(await client.send(Self.notification("n1", to: gone), environment: .production) == .unregistered(since: since))
            #expect(await client.send(Self.notification("n1", to: sandbox), environment: .production) == .badDevice(reason: "BadDeviceToken"))
            #expect(
                await client.send(Self.notification("n1", to: busy), environment: .production)
                    == .retry(reason: "TooManyRequests", retryAfter: nil))
            #expect(
                await client.send(Self.notification("n1", to: down), environment: .production)
                    == .retry(reason: "ServiceUnavailable", retryAfter: nil))
            #expect(await standIn.received.notifications.isEmpty)
        }
    }

    @Test func anExpiredProviderTokenIsMadeAgainOnceAndTheNotificationSent() async throws {
        let sender = TestClock()
        let standIn = TestClock()
        try await Self.withStandIn(senderClock: sender, standInClock: standIn) { client, received, token in
            #expect(await client.send(Self.notification("n1"), environment: .production) == .sent)
            // 30 minutes later by the sender's clock (the token is reused), 61 by APNs': expired.
            sender.advance(minutes: 30)
            standIn.advance(minutes: 61)
            #expect(await client.send(Self.notification("n2"), environment: .production) == .sent)
            #expect(await token.made == 2)
            #expect(await received.received.notifications.count == 2)
        }
    }

    @Test func aProviderTokenOfAnotherKeyIsRefused() async throws {
        try await Self.withStandIn { client, standIn, _ in
            // A client whose token is signed by a key the stand-in does not know.
            let stranger = await ProviderToken(key: ES256PrivateKey(), keyID: "KEY1", teamID: "TEAM")
            let other = APNsClient(configuration: client.configuration, token: stranger, logger: Self.logger)
            #expect(await other.send(Self.notification("n1"), environment: .production) == .failed(status: 403, reason: "InvalidProviderToken"))
            try await other.shutdown()
            #expect(await standIn.received.notifications.isEmpty)
        }
    }

    @Test func goAwayMidBurstLosesNothingAndDoublesNothing() async throws {
        // Every 150th request closes its connection gracefully (GOAWAY, as APNs does when it
        // rebalances): 600 sends at once over two connections meet four of them.
        try await Self.withStandIn(goAwayAfter: 150) { client, standIn, _ in
            let devices = (0..<600).map { String(format: "%064x", 0xBEEF_0000 + $0) }
            let answers = await withTaskGroup(of: APNsAnswer.self) { group in
                for device in devices {
                    group.addTask { await client.send(Self.notification("burst", to: device), environment: .production) }
                }
                return await group.reduce(into: [APNsAnswer]()) { $0.append($1) }
            }
            let refused = answers.filter { $0 != .sent }
            #expect(refused.isEmpty, "\(refused.count) not sent; first: \(String(describing: refused.first))")
            let received = await standIn.received.notifications
            #expect(Set(devices).subtracting(received.map(\.deviceToken)).isEmpty)  // nothing lost
            #expect(received.count == devices.count)  // nothing delivered twice
            // A stream refused by GOAWAY never reached the stand-in; one whose answer was lost
            // with its connection was sent again with its apns-id, and dropped as a copy.
            let requests = await standIn.received.requests
            #expect(requests >= devices.count)
            for notification in received where await standIn.received.count(apnsID: notification.apnsID) > 1 {
                #expect(notification.apnsID == Self.notification("burst", to: notification.deviceToken).id.uuidString.lowercased())
            }
        }
    }

    /// A stream that gets a head and then stalls: that send ends at its deadline as a retry
    /// (not resent at once), and sends to other devices, at the same time on the same
    /// connections, are answered meanwhile.
    @Test(.timeLimit(.minutes(1)))
    func aStalledStreamEndsAtItsDeadlineAndHoldsNoOtherSend() async throws {
        let stalled = String(repeating: "5a", count: 32)
        try await Self.withStandIn(stalled: [stalled], timeout: .seconds(10)) { client, standIn, _ in
            // Both connections set up first (their TLS handshakes, beside the rest of the suite,
            // would otherwise count in the sends' 10 s): two sends, each again until it is sent.
            for index in 0..<2 {
                let warm = String(format: "%064x", 0xAAA0 + index)
                while await client.send(Self.notification("n-warm", to: warm), environment: .production) != .sent {}
            }
            async let stuck = client.send(Self.notification("n-stall", to: stalled), environment: .production)
            let others = (0..<20).map { String(format: "%064x", 0xFEED_0000 + $0) }
            let answers = await withTaskGroup(of: APNsAnswer.self) { group in
                for device in others { group.addTask { await client.send(Self.notification("n-beside", to: device), environment: .production) } }
                return await group.reduce(into: [APNsAnswer]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0 == .sent }, "\(answers.filter { $0 != .sent })")
            guard case .retry(let reason, _) = await stuck else {
                Issue.record("a stalled stream is retried on the schedule")
                return
            }
            #expect(reason.contains("did not finish within 10 s"), "\(reason)")
            #expect(await standIn.received.count(apnsID: Self.notification("n-stall", to: stalled).id.uuidString.lowercased()) == 0)
        }
    }

    /// Absurd `timestamp`s in a 410: never a trap; a future one is the time of the answer, so a
    /// device registered since is not unregistered by it; one that is no number is left out.
    @Test func absurdTimestampsAreReadWithoutATrap() async throws {
        let texts = ["1e308", "-5", "9223372036854775807", "\"soon\"", "null", "[1]", "253402300799000"]
        let devices = texts.indices.map { String(format: "%064x", 0xAB5_0000 + $0) }
        try await Self.withStandIn(timestampTexts: Dictionary(uniqueKeysWithValues: zip(devices, texts))) { client, _, _ in
            let before = Date()
            for (device, text) in zip(devices, texts) {
                guard case .unregistered(let since) = await client.send(Self.notification("n-odd", to: device), environment: .production)
                else {
                    Issue.record("\(text): a 410 is an unregistered device")
                    continue
                }
                if let since {
                    #expect(since.timeIntervalSince1970 >= 0 && since <= Date(), "\(text): \(since)")
                    if ["1e308", "9223372036854775807", "253402300799000"].contains(text) { #expect(since >= before) }
                }
            }
        }
    }

    /// A GOAWAY after every request (a storm), with 100 sends at once over two connections:
    /// every one ends — sent, or retried on the schedule after its resends — and none is
    /// delivered twice. Every send answered `sent` reached the stand-in; one the stand-in took
    /// whose answer came after the deadline (a loaded machine, 100 TLS handshakes) is a retry,
    /// which APNs would drop as a duplicate by its apns-id. Each send has 60 s: CI's loaded
    /// machine answered 17 of 100 after a 20 s deadline (retries, as they should be), and the
    /// storm, not the machine's speed, is what this measures.
    @Test(.timeLimit(.minutes(3)))
    func aGoAwayStormLosesNothingAndHangsNothing() async throws {
        try await Self.withStandIn(goAwayAfter: 1, timeout: .seconds(60)) { client, standIn, _ in
            let devices = (0..<100).map { String(format: "%064x", 0x5707_0000 + $0) }
            let answers = await withTaskGroup(of: (String, APNsAnswer).self) { group in
                for device in devices {
                    group.addTask { (device, await client.send(Self.notification("storm", to: device), environment: .production)) }
                }
                return await group.reduce(into: [String: APNsAnswer]()) { $0[$1.0] = $1.1 }
            }
            #expect(answers.count == devices.count)
            for (_, answer) in answers where answer != .sent {
                guard case .retry = answer else {
                    Issue.record("\(answer): a send refused by GOAWAY is sent again or retried, never failed")
                    continue
                }
            }
            let received = await standIn.received.notifications.map(\.deviceToken)
            #expect(Set(received).count == received.count)  // nothing delivered twice
            let sent = Set(answers.filter { $0.value == .sent }.map(\.key))
            #expect(sent.isSubset(of: Set(received)), "\(sent.subtracting(received).count) answered sent but never received")
            #expect(sent.count >= 90, "only \(sent.count) of 100 sent")  // a retry is the exception, not the rule
        }
    }
}
