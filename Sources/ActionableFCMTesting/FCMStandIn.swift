public import ActionableAPNsTesting
public import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdHTTP2
public import JWTKit
public import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import NIOSSL

/// A stand-in for FCM HTTP v1, for tests and walkthroughs: HTTPS (HTTP/2 or HTTP/1.1), a token
/// endpoint that checks a service account's JWT-bearer grant as Google's does, and
/// `POST /v1/projects/{project}/messages:send` checked as FCM checks it and answered as FCM
/// answers, with failures scripted per registration token; `GET /sent` lists what it took.
public struct FCMStandIn: Sendable {
    /// A scripted answer for one registration token.
    public struct Failure: Sendable, Hashable {
        /// The HTTP status (404, 400, 403, 429, 500, 503, …).
        public var status: Int
        /// The FCM error code in `details[].errorCode` (`UNREGISTERED`, `QUOTA_EXCEEDED`, …).
        public var code: String
        /// A `Retry-After` header's text, sent as it is (a number, a date, garbage).
        public var retryAfter: String?

        public init(status: Int, code: String, retryAfter: String? = nil) {
            self.status = status
            self.code = code
            self.retryAfter = retryAfter
        }
    }

    /// What the stand-in accepts and what it scripts.
    public struct Configuration: Sendable {
        /// The public half of the service account's key: assertions must be signed by it.
        public var serviceAccountKey: Insecure.RSA.PublicKey
        /// The key's id (`private_key_id`): the assertion's `kid`.
        public var keyID: String
        /// The account's address (`client_email`), checked against `iss`; any when `nil`.
        public var clientEmail: String?
        /// The token endpoint's URL, checked against `aud`: a whole URL, or a path (`/token`,
        /// the default) that an https `aud` must have (the stand-in's port is chosen at start);
        /// any when `nil`.
        public var tokenURI: String?
        /// The project messages may be sent for; any when `nil`.
        public var projectID: String?
        /// How long an access token it issues is valid (Google's: an hour).
        public var accessTokenLifetime: TimeInterval
        /// Registration tokens answered 404 `UNREGISTERED`.
        public var unregistered: Set<String>
        /// Registration tokens answered with a scripted failure.
        public var failures: [String: Failure]
        /// The clock assertions and access tokens are checked against.
        public var now: @Sendable () -> Date

        public init(
            serviceAccountKey: Insecure.RSA.PublicKey, keyID: String, clientEmail: String? = nil, tokenURI: String? = "/token",
            projectID: String? = nil, accessTokenLifetime: TimeInterval = 3600, unregistered: Set<String> = [],
            failures: [String: Failure] = [:], now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.serviceAccountKey = serviceAccountKey
            self.keyID = keyID
            self.clientEmail = clientEmail
            self.tokenURI = tokenURI
            self.projectID = projectID
            self.accessTokenLifetime = accessTokenLifetime
            self.unregistered = unregistered
            self.failures = failures
            self.now = now
        }
    }

    public let configuration: Configuration
    /// What it took.
    public let received = ReceivedMessages()
    private let tokens: AccessTokens

    /// A stand-in with `configuration`.
    public init(configuration: Configuration) async {
        self.configuration = configuration
        tokens = await AccessTokens(
            publicKey: configuration.serviceAccountKey, keyID: configuration.keyID, clientEmail: configuration.clientEmail,
            audience: configuration.tokenURI, lifetime: configuration.accessTokenLifetime, now: configuration.now)
    }

    /// Revokes every access token issued so far: the next send with one is answered 401, as
    /// Google answers a token it no longer takes.
    public func revokeAccessTokens() async { await tokens.revokeAll() }

    /// Takes the token endpoint down — every grant answered 503 — or, with `false`, brings it back.
    public func setTokenEndpointDown(_ down: Bool) async { await tokens.setDown(down) }

    /// How many access tokens the token endpoint issued.
    public var grantCount: Int { get async { await tokens.grantCount } }

    /// The application serving the stand-in on `host`:`port` over TLS with `certificate` (HTTP/2
    /// or HTTP/1.1, as the client offers); `onServerRunning` learns the bound port.
    public func application(
        host: String = "127.0.0.1", port: Int = 0, certificate: StandInCertificate,
        logger: Logger = Logger(label: "fcm-stand-in"), onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        Application(
            router: router, server: try .http2Upgrade(tlsConfiguration: try certificate.serverConfiguration()),
            configuration: .init(address: .hostname(host, port: port), serverName: "fcm-stand-in"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// The routes: `POST /token`, `POST /v1/projects/{project}/messages:send`, `GET /sent`.
    public var router: Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.post("/token") { request, _ in
            let body = try await request.body.collect(upTo: 64 * 1024)
            switch await tokens.grant(form: String(buffer: body)) {
            case .issued(let token, let expiresIn):
                return Self.json(.ok, ["access_token": token, "expires_in": expiresIn, "token_type": "Bearer"])
            case .refused(let error, let description):
                return Self.json(.badRequest, ["error": error, "error_description": description])
            case .unavailable:
                return Self.json(
                    .serviceUnavailable, ["error": "temporarily_unavailable", "error_description": "scripted: the token endpoint is down"])
            }
        }
        router.post("/v1/projects/:project/messages:send") { request, context in
            _ = await received.countRequest()
            return try await send(request, project: context.parameters.get("project") ?? "")
        }
        router.get("/sent") { _, _ in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = try encoder.encode(await received.messages)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return router
    }

    private func send(_ request: Request, project: String) async throws -> Response {
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.lowercased().hasPrefix("bearer "), await tokens.isValid(String(authorization.dropFirst("bearer ".count))) else {
            return Self.error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.", code: nil)
        }
        if let projectID = configuration.projectID, project != projectID {
            return Self.error(
                403, "PERMISSION_DENIED",
                "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/\(project)'",
                code: nil)
        }
        let body = try await request.body.collect(upTo: 1024 * 1024)
        let checked: MessageCheck.Checked
        do {
            checked = try MessageCheck.check(Data(buffer: body))
        } catch {
            return Self.error(400, "INVALID_ARGUMENT", error.message, code: error.errorCode)
        }
        if configuration.unregistered.contains(checked.token) {
            return Self.error(404, "NOT_FOUND", "Requested entity was not found.", code: "UNREGISTERED")
        }
        if let failure = configuration.failures[checked.token] {
            let status = min(max(failure.status, 100), 999)  // a status HTTP can carry, whatever was scripted
            var response = Self.error(status, Self.googleStatus(status), "A scripted \(failure.code).", code: failure.code)
            if let retryAfter = failure.retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        }
        let name = "projects/\(project)/messages/\(UUID().uuidString.lowercased())"
        await received.append(
            ReceivedMessage(
                name: name, token: checked.token, data: checked.data, priority: checked.priority, ttl: checked.ttl,
                collapseKey: checked.collapseKey))
        return Self.json(.ok, ["name": name])
    }

    /// The `status` Google names beside an HTTP status.
    static func googleStatus(_ status: Int) -> String {
        switch status {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 429: "RESOURCE_EXHAUSTED"
        case 503: "UNAVAILABLE"
        default: "INTERNAL"
        }
    }

    /// An error as FCM writes it: `{"error": {"code", "message", "status", "details": [FcmError]}}`.
    static func error(_ status: Int, _ googleStatus: String, _ message: String, code: String?) -> Response {
        var error: [String: Any] = ["code": status, "message": message, "status": googleStatus]
        if let code { error["details"] = [["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code]] }
        return json(HTTPResponse.Status(code: status), ["error": error])
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
