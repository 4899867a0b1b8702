public import ActionableCore
import ActionableWire
public import AsyncHTTPClient
public import Foundation
public import Logging
public import NIOCore
public import NIOHTTP1

/// Forwards accepted responses to an upstream URL (`--forward PATTERN=URL`, docs/http-api.md):
/// `POST` with the response as JSON and Standard Webhooks headers — `webhook-id` (the response
/// id, the same on every retry), `webhook-timestamp` (fresh on every try), `webhook-signature` —
/// plus `Idempotency-Key` equal to the id.
///
/// 2xx is delivered; 408, 429 and 5xx are retried (honouring `Retry-After`), and so are network
/// errors and redirects (thrown: a 3xx is never followed); any other 4xx, 410 included, ends
/// the response as dead.
public struct Forwarder: Sendable {
    /// Where responses go.
    public let url: String
    /// The secrets each call is signed with: one, or two during a rotation (both signatures are
    /// sent, space-separated, as Standard Webhooks allows).
    private let signers: [WebhookSigner]
    private let client: HTTPClient
    private let timeout: TimeAmount
    private let now: @Sendable () -> Date

    /// The client forwards use by default: async-http-client's shared client follows redirects
    /// (and turns a POST into a GET on 301, 302 and 303), so forwards have one that never does,
    /// and that does not retry a refused connection within an attempt.
    public static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // A refused connection is a failed attempt at once (counted by the breaker, retried on the
        // schedule), not retried inside the attempt until its timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many connections per host as a batch of one endpoint's deliveries (``EndpointWorker``'s
        // 32): with async-http-client's 8, three quarters of a batch queued behind the others.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
        // The attempt's own span (``AttemptSpan``) is what the upstream receives as `traceparent`,
        // whenever this client was made: the client adds no span or header of its own.
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// A forwarder to `url`, signing with `signer`; each try times out after `timeout` (10 s by
    /// default). Give `client` redirects disallowed (as ``client`` has): a redirect must be a
    /// failed attempt, never a POST re-sent elsewhere or a GET taken for a delivery.
    public init(
        url: String, signer: WebhookSigner, client: HTTPClient = Forwarder.client, timeout: TimeAmount = .seconds(10),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(url: url, signers: [signer], client: client, timeout: timeout, now: now)
    }

    /// A forwarder to `url` signing with each of `signers` (the current secret first).
    public init(
        url: String, signers: [WebhookSigner], client: HTTPClient = Forwarder.client, timeout: TimeAmount = .seconds(10),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.url = url
        self.signers = signers
        self.client = client
        self.timeout = timeout
        self.now = now
    }

    /// The JSON body (``ForwardedResponse``): id, category, action, notificationId, user, userText,
    /// payload, receivedAt. `receivedAt` is Unix seconds (with a fraction), as everywhere in the
    /// HTTP API.
    public static func body(_ response: ActionResponse, id: String, receivedAt: Date) -> [UInt8] {
        ForwardedResponse.bytes(of: response, id: id, receivedAt: receivedAt)
    }

    /// POSTs response `id` (received at `receivedAt`) as one attempt of its delivery: `webhook-id`
    /// and `Idempotency-Key` are `webhookID` (the response id when `nil`), with `headers` added (a
    /// `traceparent`). Throws `UpstreamFailure` for an attempt that got no usable answer.
    /// `metadata` goes with what is logged of the attempt.
    public func forward(
        _ response: ActionResponse, id: String, receivedAt: Date, webhookID: String? = nil, headers: [(String, String)] = [],
        logger: Logger, metadata: Logger.Metadata = [:]
    ) async throws -> UpstreamAnswer {
        let body = Self.body(response, id: id, receivedAt: receivedAt)
        return try await post(body, webhookID: webhookID ?? id, headers: headers, logger: logger, metadata: metadata)
    }

    /// POSTs `body`, signed, as one attempt of delivery `webhookID`, and reads the answer as
    /// described above.
    public func post(
        _ body: [UInt8], webhookID: String, headers: [(String, String)] = [], logger: Logger, metadata: Logger.Metadata = [:]
    ) async throws -> UpstreamAnswer {
        let timestamp = Int(now().timeIntervalSince1970)
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "actionable")
        request.headers.add(name: "webhook-id", value: webhookID)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(
            name: "webhook-signature",
            value: signers.map { $0.signature(id: webhookID, timestamp: timestamp, body: body) }.joined(separator: " "))
        request.headers.add(name: "Idempotency-Key", value: webhookID)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let answer: (status: HTTPResponseStatus, headers: HTTPHeaders)
        do {
            // The deadline covers the whole answer, head and body: an upstream that sends a head
            // and then stalls is a failed attempt when the time is up, not an attempt held forever.
            let client = self.client
            let timeout = self.timeout
            let prepared = request
            // The HTTP client logs only at debug and trace, and sets metadata of its own on the
            // logger for every request (which a stream handler renders each time): below debug it
            // gets a logger that drops everything.
            let clientLogger = logger.logLevel <= .debug ? Self.attemptLogger(logger, metadata) : Self.quiet
            let deadline = NIODeadline.now() + timeout
            // The client's deadline covers the head; the body is read within what is left of it.
            let reply = try await client.execute(prepared, deadline: deadline, logger: clientLogger)
            if Self.isWhole(reply) {
                // No body follows the head (HTTP/1: 204, 304, Content-Length: 0): the parser hands
                // over its end with the head, so reading it cannot stall and needs no timer.
                for try await _ in reply.body {}
            } else {
                let loop = client.eventLoopGroup.any()
                let timer: DeadlineTimer = { limit, fire in
                    let scheduled = loop.scheduleTask(in: .nanoseconds(limit.saturatingNanoseconds)) { fire() }
                    return { scheduled.cancel() }
                }
                let body = reply.body
                try await withDeadline(Self.left(until: deadline, now: .now()), what: "the upstream's answer", timer: timer) {
                    // The answer is read whole before it counts: a body cut short (reset) is a
                    // failed attempt. Its bytes are dropped; past 64 KiB the rest is not read (the
                    // connection closes), and the status stands.
                    var read = 0
                    for try await chunk in body {
                        read += chunk.readableBytes
                        if read > 64 * 1024 { break }
                    }
                }
            }
            answer = (reply.status, reply.headers)
        } catch {
            // The error's text goes to the log and to lastError: never the whole URL.
            throw UpstreamFailure(
                description: "\(UpstreamAddress.redacted(url)) could not be reached: \(UpstreamAddress.scrub("\(error)", url: url))")
        }
        let outcome = try outcome(status: Int(answer.status.code), headers: answer.headers, now: now())
        if case .retry = outcome {
            logger.info("upstream asked to retry", metadata: metadata.merging(["status": "\(answer.status.code)"]) { $1 })
        }
        return outcome
    }

    /// Whether the answer's head says no body follows it, in HTTP/1: a 204 or 304, or
    /// `Content-Length: 0` without a `Transfer-Encoding` (which would say otherwise). There the
    /// parser ends the message with its head. Not in HTTP/2, where only a frame's END_STREAM flag
    /// ends it, and an upstream may send a 204's head and never that.
    static func isWhole(_ reply: HTTPClientResponse) -> Bool {
        guard reply.version.major == 1 else { return false }
        if reply.status == .noContent || reply.status == .notModified { return true }
        return reply.headers.first(name: "content-length") == "0" && !reply.headers.contains(name: "transfer-encoding")
    }

    /// The time left until `deadline` at `now`: zero once it has passed (never a wrap-around to
    /// "no limit" when the reader resumes late).
    static func left(until deadline: NIODeadline, now: NIODeadline) -> Duration {
        .nanoseconds(max(0, (deadline - now).nanoseconds))
    }

    /// A logger that drops everything, for the HTTP client when nothing it logs would be shown.
    private static let quiet = Logger(label: "actionable.forwarder") { _ in SwiftLogNoOpLogHandler() }

    private static func attemptLogger(_ logger: Logger, _ metadata: Logger.Metadata) -> Logger {
        var logger = logger
        for (key, value) in metadata { logger[metadataKey: key] = value }
        return logger
    }

    /// What the upstream's answer means (`status`, and its `Retry-After` and `Location`) for a
    /// delivery: never a trap, whatever the numbers (the fuzz target `fuzz-upstream-answers` feeds
    /// it arbitrary ones).
    public func outcome(status: Int, headers: HTTPHeaders, now: Date) throws -> UpstreamAnswer {
        switch status {
        case 200..<300:
            return .delivered
        case 300..<400:
            // Not followed: the response stays pending and is retried with backoff, so that it
            // is delivered once the forward URL is fixed. lastError names where it was sent.
            let location = headers.first(name: "Location").map { target in
                URL(string: target, relativeTo: URL(string: url)).map { UpstreamAddress.redacted($0.absoluteString) } ?? "an unreadable location"
            }
            throw UpstreamFailure(
                description: "the upstream \(UpstreamAddress.redacted(url)) answered HTTP \(status), a redirect"
                    + (location.map { " to \($0)" } ?? "") + "; redirects are not followed: fix the forward URL")
        case 408, 429, 500..<600:
            return .retry(after: headers.first(name: "Retry-After").flatMap { Self.retryAfter($0, now: now) })
        case 400..<500:
            return .refused(reason: "the upstream \(UpstreamAddress.redacted(url)) answered HTTP \(status), which is not retried")
        default:
            // Not an answer HTTP defines (1xx as a final answer, 600 and up): a failed attempt,
            // retried, never a reason to give the response up.
            throw UpstreamFailure(
                description: "the upstream \(UpstreamAddress.redacted(url)) answered HTTP \(status), which is not a final HTTP status")
        }
    }

    /// `Retry-After` as delay-seconds or an HTTP date, in whole seconds, at most
    /// ``RetryPolicy/longestRequestedDelay`` (an hour): a peer's number never traps.
    static func retryAfter(_ value: String, now: Date) -> Duration? {
        RetryAfter.delay(value, now: now, longest: RetryPolicy.longestRequestedDelay).map { .seconds(Int($0.rounded(.up))) }
    }
}
