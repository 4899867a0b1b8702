public import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdHTTP2
public import JWTKit
public import Logging
public import NIOCore
import NIOSSL

/// A stand-in for APNs, for tests and walkthroughs: HTTP/2 over TLS, `POST /3/device/{token}`
/// checked as Apple checks it, answered as Apple answers, with failures scripted per device
/// token; `GET /sent` lists what it delivered (a resent copy of an `apns-id` once).
///
/// It checks the provider token (ES256 signature by a known `kid`, `iss` the team, no older
/// than an hour, not replaced more often than every 20 minutes), the headers (`apns-topic`,
/// `apns-push-type`, `apns-priority`, `apns-id`, `apns-expiration`, `apns-collapse-id` of at
/// most 64 bytes), the device token (hexadecimal) and the payload (a JSON object of at most
/// 4096 bytes).
public struct APNsStandIn: Sendable {
    /// What the stand-in accepts and what it scripts.
    public struct Configuration: Sendable {
        /// The public keys of the provider tokens it accepts, by `kid`.
        public var providerKeys: [String: ES256PublicKey]
        /// The team every provider token must name (`iss`); any team when `nil`.
        public var teamID: String?
        /// Device tokens answered 410 `Unregistered`, with the time of Apple's `timestamp`
        /// (now when `nil`).
        public var unregistered: [String: Date?]
        /// Device tokens answered with a status and reason (`400 BadDeviceToken`, `429 TooManyRequests`, …).
        public var failures: [String: (status: Int, reason: String)]
        /// The clock the provider token's age is checked against (injectable for tests).
        public var now: @Sendable () -> Date
        /// Every this many requests, the connection that carried the last one is told GOAWAY (as
        /// APNs does when it rebalances): streams it had not started are refused, and the
        /// client must send them again on a new connection. `nil` never.
        public var goAwayAfter: Int?
        /// Device tokens whose streams get a `200` head and then nothing more, never ended (a
        /// stalled stream): the sender must give up on its own deadline.
        public var stalled: Set<String>
        /// Device tokens answered 410 `Unregistered` with `timestamp` written as this JSON text,
        /// whatever it is (`1e308`, `-5`, `"soon"`): an absurd answer, as a hostile peer sends.
        public var timestampTexts: [String: String]

        /// A configuration accepting tokens of `providerKeys`.
        public init(
            providerKeys: [String: ES256PublicKey], teamID: String? = nil, unregistered: [String: Date?] = [:],
            failures: [String: (status: Int, reason: String)] = [:], goAwayAfter: Int? = nil, stalled: Set<String> = [],
            timestampTexts: [String: String] = [:], now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.stalled = stalled
            self.timestampTexts = timestampTexts
            self.goAwayAfter = goAwayAfter
            self.providerKeys = providerKeys
            self.teamID = teamID
            self.unregistered = unregistered
            self.failures = failures
            self.now = now
        }
    }

    public let configuration: Configuration
    /// What it took.
    public let received = ReceivedNotifications()
    private let checker: ProviderTokenChecker

    /// A stand-in with `configuration`.
    public init(configuration: Configuration) async {
        self.configuration = configuration
        checker = await ProviderTokenChecker(keys: configuration.providerKeys, teamID: configuration.teamID, now: configuration.now)
    }

    /// The application serving the stand-in on `host`:`port` over HTTP/2 and TLS with
    /// `certificate`; `onServerRunning` learns the bound port (give port 0 for a free one).
    public func application(
        host: String = "127.0.0.1", port: Int = 0, certificate: StandInCertificate,
        logger: Logger = Logger(label: "apns-stand-in"), onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: try certificate.serverConfiguration()),
            configuration: .init(address: .hostname(host, port: port), serverName: "apns-stand-in"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// `apns-id`, echoed on every answer (the literal is a valid field name).
    static let apnsIDField = HTTPField.Name("apns-id") ?? .contentLocation

    /// The `apns-push-type` values Apple takes.
    static let pushTypes: Set<String> = [
        "alert", "background", "voip", "complication", "fileprovider", "mdm", "location", "liveactivity", "pushtotalk", "widgets",
        "controls",
    ]

    /// The routes: `POST /3/device/{token}`, `GET /sent` and `GET /sent/last`.
    public var router: Router<StandInRequestContext> {
        let router = Router(context: StandInRequestContext.self)
        router.post("/3/device/:token") { request, context in
            let response = try await self.receive(request, token: context.parameters.get("token") ?? "", context: context)
            if let every = configuration.goAwayAfter, await received.countRequest().isMultiple(of: max(1, every)) {
                // The connection (the stream's parent) sends GOAWAY once this answer is out.
                context.channel.parent?.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
            }
            return response
        }
        router.get("/sent/last") { _, _ in
            guard let last = await self.received.notifications.last else { return Response(status: .notFound) }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: last.payload)))
        }
        router.get("/sent") { _, _ in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = try encoder.encode(await self.received.notifications)
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return router
    }

    private func receive(_ request: Request, token deviceToken: String, context: StandInRequestContext) async throws -> Response {
        let header = { (name: String) in HTTPField.Name(name).flatMap { request.headers[$0] } }
        let apnsID = header("apns-id") ?? UUID().uuidString.lowercased()
        func refuse(_ status: Int, _ reason: String, timestamp: Date? = nil, timestampText: String? = nil) -> Response {
            var text = #"{"reason":"\#(reason)""#
            if let timestamp {
                // Milliseconds as an integer when one holds them (a scripted date may be any).
                let milliseconds = (timestamp.timeIntervalSince1970 * 1000).rounded()
                text += ",\"timestamp\":" + (Int64(exactly: milliseconds).map(String.init) ?? String(milliseconds))
            }
            if let timestampText { text += #","timestamp":"# + timestampText }
            text += "}"
            var headers: HTTPFields = [.contentType: "application/json"]
            headers[Self.apnsIDField] = apnsID
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        // The provider token first, as Apple does.
        guard let authorization = header("authorization"), authorization.lowercased().hasPrefix("bearer ") else {
            return refuse(403, "MissingProviderToken")
        }
        if let refused = await checker.check(String(authorization.dropFirst("bearer ".count))) {
            return refuse(refused.status, refused.reason)
        }
        guard let topic = header("apns-topic"), !topic.isEmpty else { return refuse(400, "MissingTopic") }
        let pushType = header("apns-push-type") ?? "alert"
        guard Self.pushTypes.contains(pushType) else {
            return refuse(400, "InvalidPushType")
        }
        guard let priority = Int(header("apns-priority") ?? "10"), [1, 5, 10].contains(priority) else { return refuse(400, "BadPriority") }
        if let id = header("apns-id"), UUID(uuidString: id) == nil { return refuse(400, "BadMessageId") }
        if let expiration = header("apns-expiration"), Int(expiration) == nil { return refuse(400, "BadExpirationDate") }
        let collapseID = header("apns-collapse-id")
        if let collapseID, collapseID.utf8.count > 64 { return refuse(400, "BadCollapseId") }
        guard StandInScript.isDeviceToken(deviceToken) else { return refuse(400, "BadDeviceToken") }
        let body = try await request.body.collect(upTo: 64 * 1024)
        guard body.readableBytes <= 4096 else { return refuse(413, "PayloadTooLarge") }
        let payload = String(buffer: body)
        // Apple documents no reason for a payload that is not a JSON object; the stand-in is
        // stricter and answers its nearest one.
        guard (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) is [String: Any] else {
            return refuse(400, "PayloadEmpty")
        }
        if let since = configuration.unregistered[deviceToken] { return refuse(410, "Unregistered", timestamp: since ?? configuration.now()) }
        if let text = configuration.timestampTexts[deviceToken] { return refuse(410, "Unregistered", timestampText: text) }
        if configuration.stalled.contains(deviceToken) {
            // A head, then a body that never ends: only the sender ends the stream (its
            // deadline resets it), and the handler returns once the stream is closed.
            let stream = context.channel
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "{"))
                    try? await stream.closeFuture.get()
                    throw CancellationError()
                })
        }
        if let failure = configuration.failures[deviceToken] { return refuse(failure.status, failure.reason) }
        await received.append(
            ReceivedNotification(
                deviceToken: deviceToken, apnsID: apnsID, topic: topic, pushType: pushType, priority: priority, collapseID: collapseID,
                payload: payload))
        var headers = HTTPFields()
        headers[Self.apnsIDField] = apnsID
        return Response(status: .ok, headers: headers)
    }
}

/// The stand-in's request context: Hummingbird's, and the channel of the request's stream (whose
/// parent is the connection, told GOAWAY with ``APNsStandIn/Configuration/goAwayAfter``).
public struct StandInRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The stream's channel.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
