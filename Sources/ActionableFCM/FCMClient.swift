import ActionableWire
import AsyncHTTPClient
public import Foundation
public import Logging
import NIOCore
public import NIOHTTP1
public import NIOSSL

/// A message for one device: FCM HTTP v1's `{"message": {"token", "data", "android"}}`.
public struct FCMMessage: Sendable, Hashable {
    /// The device's registration token.
    public var token: String
    /// The data message: keys and values, all strings.
    public var data: [String: String]
    /// `android.priority`: `high` shows the notification at once, `normal` may wait for the device.
    public var priority: String
    /// `android.ttl` in seconds: how long FCM keeps the message for a device that is offline.
    public var timeToLive: Int?
    /// `android.collapse_key`: a newer message with the same key replaces an older one not yet
    /// delivered.
    public var collapseKey: String?

    public init(token: String, data: [String: String], priority: String = "high", timeToLive: Int? = nil, collapseKey: String? = nil) {
        self.token = token
        self.data = data
        self.priority = priority
        self.timeToLive = timeToLive
        self.collapseKey = collapseKey
    }

    /// The request body.
    public var body: [UInt8] {
        var android: [String: Any] = ["priority": priority]
        if let timeToLive { android["ttl"] = "\(max(0, timeToLive))s" }
        if let collapseKey { android["collapse_key"] = collapseKey }
        let object: [String: Any] = ["message": ["token": token, "data": data, "android": android]]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}

/// Sends messages to FCM HTTP v1 (`POST {base}/v1/projects/{project}/messages:send`) with the
/// service account's shared access token, and reads FCM's answers. A 401 renews the token once
/// and sends again; everything FCM or a peer on the way answers is bounded (64 KiB of body, the
/// deadline over head and body, a `Retry-After` of at most an hour).
public struct FCMClient: Sendable {
    /// Where and how it sends.
    public struct Configuration: Sendable {
        /// FCM's base URL (`https://fcm.googleapis.com`, or a stand-in's).
        public var baseURL: String
        /// Certificates trusted besides the system's (a stand-in's); `nil` for the system's only.
        public var trustedCertificates: [NIOSSLCertificate]?
        /// One send's deadline, its token renewal and resend included.
        public var timeout: Duration

        public init(baseURL: String = "https://fcm.googleapis.com", trustedCertificates: [NIOSSLCertificate]? = nil, timeout: Duration = .seconds(10))
        {
            self.baseURL = baseURL
            self.trustedCertificates = trustedCertificates
            self.timeout = timeout
        }
    }

    public let configuration: Configuration
    public let account: ServiceAccount
    /// The access token shared by every send.
    public let accessToken: AccessToken
    private let client: HTTPClient
    private let logger: Logger

    /// A client for `account`; `now` is the clock its access token's age is read on.
    public init(configuration: Configuration, account: ServiceAccount, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) async throws
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trusted = configuration.trustedCertificates { tls.additionalTrustRoots = [.certificates(trusted)] }
        var http = HTTPClient.Configuration(tlsConfiguration: tls)
        http.httpVersion = .automatic
        http.redirectConfiguration = .disallow
        // A request waiting for a connection (HTTP/2 streams past the peer's limit, or HTTP/1
        // connections past the pool's) fails when the connect timeout passes: with a burst of
        // sends that wait is not FCM being unreachable, and the send's own deadline bounds it.
        http.timeout.connect = .nanoseconds(max(configuration.timeout, .seconds(1)).saturatingNanoseconds)
        http.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        http.connectionPool.retryConnectionEstablishment = false
        http.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
        var configuration = configuration
        while configuration.baseURL.hasSuffix("/") { configuration.baseURL.removeLast() }  // no `//v1/…`
        self.configuration = configuration
        self.account = account
        self.client = client
        self.logger = logger
        do {
            accessToken = try await AccessToken(account: account, client: client, timeout: configuration.timeout, now: now)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Sends `message` and reads FCM's answer; a refused access token is renewed once and the
    /// message sent again. Never throws: what went wrong is in the answer.
    public func send(_ message: FCMMessage) async -> FCMAnswer {
        do {
            return try await withDeadline(configuration.timeout, what: "FCM's answer") { await self.sendOnce(message) }
        } catch {
            return .retry(reason: "FCM did not answer: \(error)", retryAfter: nil)
        }
    }

    private func sendOnce(_ message: FCMMessage) async -> FCMAnswer {
        var renewed = false
        while true {
            let bearer: String
            do {
                bearer = try await accessToken.token()
            } catch {
                return .retry(reason: "no access token: \(error)", retryAfter: nil)
            }
            let answer: FCMAnswer
            do {
                answer = try await exchange(message, bearer: bearer)
            } catch {
                return .retry(reason: "FCM could not be reached: \(error)", retryAfter: nil)
            }
            if case .unauthenticated = answer, !renewed {
                renewed = true
                await accessToken.refused(bearer)
                continue
            }
            if case .unauthenticated = answer { return .retry(reason: "FCM refused a renewed access token", retryAfter: nil) }
            if case .unregistered(_, let reason) = answer, reason.hasPrefix("SENDER_ID_MISMATCH") {
                logger.error(
                    "FCM answered SENDER_ID_MISMATCH: the device registered with another Firebase project than \(account.projectID)'s service account",
                    metadata: ["reason": "\(reason)"])
            }
            return answer
        }
    }

    private func exchange(_ message: FCMMessage, bearer: String) async throws -> FCMAnswer {
        var request = HTTPClientRequest(url: configuration.baseURL + "/v1/projects/\(account.projectID)/messages:send")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        request.body = .bytes(ByteBuffer(bytes: message.body))
        let client = self.client
        let timeout = configuration.timeout
        let prepared = request
        let (status, headers, body) = try await withDeadline(timeout, what: "FCM's answer") {
            let response = try await client.execute(prepared, timeout: .nanoseconds(timeout.saturatingNanoseconds))
            let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer()
            return (response.status, response.headers, Array(buffer: body))
        }
        return Self.answer(status: Int(status.code), headers: headers, body: body, now: Date())
    }

    /// What FCM's answer (`status`, `headers`, `body`) means: never a trap, whatever the numbers.
    public static func answer(status: Int, headers: HTTPHeaders, body: [UInt8], now: Date) -> FCMAnswer {
        let retryAfter = headers.first(name: "retry-after").flatMap { RetryAfter.delay($0, now: now) }
        return FCMAnswer(status: status, body: body, retryAfter: retryAfter)
    }

    /// Closes the connections once the requests in flight are answered.
    public func shutdown() async throws { try await client.shutdown() }
}
