public import ActionableWire
import AsyncHTTPClient
public import Foundation
public import Logging
import NIOCore
public import NIOHTTP1
public import NIOSSL
import Synchronization

extension APNsEnvironment {
    /// Apple's host for the environment.
    public var appleURL: String {
        switch self {
        case .production: return "https://api.push.apple.com"
        case .sandbox: return "https://api.sandbox.push.apple.com"
        }
    }
}

/// Sends notifications to APNs over HTTP/2 (async-http-client): `connections` long-lived
/// connections per host, requests spread across them, each bounded by the streams the server
/// allows; one provider token shared by all (``ProviderToken``).
///
/// A request that got no answer — the connection lost, or a GOAWAY before APNs read the stream —
/// is sent again at once on another connection with the same `apns-id` (Apple drops a copy it
/// already took), up to ``Configuration/resends`` times, each a few milliseconds later than the
/// last so the pool can replace a connection that is going away; then the answer is
/// ``APNsAnswer/retry(reason:retryAfter:)`` (the send worker tries again on its schedule).
public final class APNsClient: Sendable {
    /// How to reach APNs.
    public struct Configuration: Sendable {
        /// The app's bundle id (`apns-topic`).
        public var topic: String
        /// A base URL instead of Apple's hosts (a stand-in); `nil` picks each device's
        /// environment's host.
        public var baseURL: String?
        /// PEM certificates to trust instead of the system's (a stand-in's own).
        public var trustedCertificates: [NIOSSLCertificate]?
        /// Connections per host.
        public var connections: Int
        /// How long one request may take.
        public var timeout: Duration
        /// How many times a request without an answer is sent again at once.
        public var resends: Int

        /// A configuration for `topic`.
        public init(
            topic: String, baseURL: String? = nil, trustedCertificates: [NIOSSLCertificate]? = nil, connections: Int = 2,
            timeout: Duration = .seconds(10), resends: Int = 5
        ) {
            self.topic = topic
            self.baseURL = baseURL
            self.trustedCertificates = trustedCertificates
            self.connections = connections
            self.timeout = timeout
            self.resends = resends
        }
    }

    public let configuration: Configuration
    public let token: ProviderToken
    private let clients: [HTTPClient]
    private let next = Counter()
    private let logger: Logger

    /// A client signing with `token`.
    public init(configuration: Configuration, token: ProviderToken, logger: Logger) {
        self.configuration = configuration
        self.token = token
        self.logger = logger
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trusted = configuration.trustedCertificates { tls.trustRoots = .certificates(trusted) }
        var http = HTTPClient.Configuration(tlsConfiguration: tls)
        http.httpVersion = .automatic  // HTTP/2, as ALPN agrees
        http.redirectConfiguration = .disallow
        http.timeout.connect = .seconds(10)
        // A refused connection fails the request at once (this client resends on its own, with the
        // same apns-id), instead of being retried until the request's deadline: a send to an APNs
        // that is down ends in milliseconds, and a graceful shutdown does not wait for it.
        http.connectionPool.retryConnectionEstablishment = false
        // A send is traced by its sender's span; no trace header goes to Apple.
        http.tracing.tracer = nil
        clients = (0..<max(1, configuration.connections)).map { _ in
            HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
        }
    }

    /// Sends `notification` to a device of `environment` and reads APNs' answer. A refused
    /// provider token is made again once (when Apple allows) and the notification sent again.
    public func send(_ notification: APNsNotification, environment: APNsEnvironment) async -> APNsAnswer {
        if let problem = notification.problem { return .failed(status: 0, reason: problem) }
        // One deadline for the whole send, its resends and a token refresh included: a stalled
        // or silent APNs ends it as a retry on the send worker's schedule, never later.
        do {
            return try await withDeadline(configuration.timeout, what: "APNs' answer") {
                await self.sendOnce(notification, environment: environment)
            }
        } catch {
            return .retry(reason: "APNs did not answer: \(error)", retryAfter: nil)
        }
    }

    private func sendOnce(_ notification: APNsNotification, environment: APNsEnvironment) async -> APNsAnswer {
        var refreshed = false
        var unanswered = 0
        while true {
            if Task.isCancelled { return .retry(reason: "APNs did not answer in time", retryAfter: nil) }
            let bearer: String
            do {
                bearer = try await token.token()
            } catch {
                return .failed(status: 0, reason: "the provider token could not be made: \(error)")
            }
            let answer: APNsAnswer
            do {
                answer = try await exchange(notification, environment: environment, bearer: bearer)
            } catch {
                unanswered += 1
                guard unanswered <= configuration.resends else {
                    return .retry(reason: "APNs did not answer: \(error)", retryAfter: nil)
                }
                logger.debug("APNs did not answer; sending again", metadata: ["apns-id": "\(notification.id)", "error": "\(error)"])
                try? await Task.sleep(for: .milliseconds(5 * (1 << (unanswered - 1))))  // 5, 10, 20, 40, 80 ms
                continue
            }
            switch answer {
            case .expiredProviderToken where !refreshed:
                refreshed = true
                do {
                    guard try await token.refresh(replacing: bearer) != nil else {
                        logger.error("APNs called a provider token younger than 20 minutes expired: is this machine's clock right?")
                        return .retry(reason: "ExpiredProviderToken on a token younger than 20 minutes", retryAfter: nil)
                    }
                } catch {
                    return .failed(status: 0, reason: "the provider token could not be made: \(error)")
                }
                continue
            case .failed(_, "TooManyProviderTokenUpdates"):
                logger.error("APNs refused TooManyProviderTokenUpdates: the provider token was made too often (a bug)")
                return answer
            default:
                return answer
            }
        }
    }

    private func exchange(_ notification: APNsNotification, environment: APNsEnvironment, bearer: String) async throws -> APNsAnswer {
        let base = configuration.baseURL ?? environment.appleURL
        var request = HTTPClientRequest(url: base + "/3/device/" + notification.deviceToken)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(bearer)")
        for (name, value) in notification.headers(topic: configuration.topic) { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: notification.payload))
        let client = clients[next.increment() % clients.count]
        let timeout = configuration.timeout
        let prepared = request
        let logger = logger
        // The deadline covers the stream whole, head and body: a stream that stalls after its
        // head is an unanswered send when the time is up, never a send held forever.
        let (status, headers, body) = try await withDeadline(timeout, what: "APNs' answer") {
            let response = try await client.execute(prepared, timeout: TimeAmount.nanoseconds(timeout.saturatingNanoseconds), logger: logger)
            // A body past 64 KiB (or cut short) is not APNs' document: the status still stands.
            let body = (try? await response.body.collect(upTo: 64 * 1024)) ?? ByteBuffer()
            return (response.status, response.headers, Array(buffer: body))
        }
        return Self.answer(status: Int(status.code), headers: headers, body: body, now: Date())
    }

    /// What APNs' answer (`status`, `headers`, `body`) means: never a trap, whatever the numbers
    /// (the fuzz target `fuzz-upstream-answers` feeds it arbitrary ones).
    public static func answer(status: Int, headers: HTTPHeaders, body: [UInt8], now: Date) -> APNsAnswer {
        let retryAfter = headers.first(name: "retry-after").flatMap { RetryAfter.delay($0, now: now) }
        return APNsAnswer(status: status, body: body, retryAfter: retryAfter, now: now)
    }

    /// Closes the connections once the requests in flight are answered.
    public func shutdown() async throws {
        for client in clients { try await client.shutdown() }
    }
}

/// A counter shared by concurrent sends (which connection is next).
private final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int {
        value.withLock { count in
            defer { count &+= 1 }
            return count
        }
    }
}
