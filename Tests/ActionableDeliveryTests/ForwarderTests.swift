import ActionableCore
import ActionableDelivery
import ActionableRouter
import ActionableStore
import ActionableTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The forwarder against a real upstream on loopback (Hummingbird, `.live`).
struct ForwarderTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    struct Received: Sendable {
        var headers: HTTPFields
        var body: String
    }

    /// An upstream that answers with the scripted statuses in turn (200 when they run out) and
    /// records what it received.
    actor Upstream {
        var script: [(status: HTTPResponse.Status, headers: HTTPFields)]
        var received: [Received] = []
        init(_ script: [(HTTPResponse.Status, HTTPFields)]) { self.script = script.map { ($0.0, $0.1) } }
        func answer(_ request: Received) -> (HTTPResponse.Status, HTTPFields) {
            received.append(request)
            return script.isEmpty ? (.ok, [:]) : script.removeFirst()
        }
    }

    static func withUpstream(
        _ script: [(HTTPResponse.Status, HTTPFields)], _ body: @Sendable (Upstream, Int) async throws -> Void
    ) async throws {
        let upstream = Upstream(script)
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let (status, headers) = await upstream.answer(Received(headers: request.headers, body: String(buffer: bytes)))
            return Response(status: status, headers: headers)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(upstream, try #require(client.port))
        }
    }

    static let response = ActionResponse(
        category: "invite", action: "comment", notificationID: "n-1", user: "alice",
        userText: "late", payload: [("inviteId", .string("42"))])

    static let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let logger = Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aDeliveredResponseIsSignedAndCarriesItsIdAsIdempotencyKey() async throws {
        try await Self.withUpstream([(.noContent, [:])]) { upstream, port in
            let signer = try WebhookSigner(secret: Self.secret)
            let forwarder = Forwarder(url: "http://127.0.0.1:\(port)/hook", signer: signer)
            #expect(try await forwarder.forward(Self.response, id: "resp-1", receivedAt: Self.receivedAt, logger: Self.logger) == .delivered)
            let received = try #require(await upstream.received.first)
            #expect(received.headers[HTTPField.Name("webhook-id")!] == "resp-1")
            #expect(received.headers[HTTPField.Name("Idempotency-Key")!] == "resp-1")
            let timestamp = try #require(received.headers[HTTPField.Name("webhook-timestamp")!].flatMap { Int($0) })
            #expect(
                received.headers[HTTPField.Name("webhook-signature")!]
                    == signer.signature(id: "resp-1", timestamp: timestamp, body: Array(received.body.utf8)))
            let json = try JSONSerialization.jsonObject(with: Data(received.body.utf8)) as? [String: Any]
            #expect(Set(json?.keys ?? [:].keys) == ["id", "category", "action", "notificationId", "user", "userText", "payload", "receivedAt"])
            // Unix seconds, as /v1/deliveries and /v1/actions/{id} say it (one type everywhere).
            #expect(json?["receivedAt"] as? Double == 1_800_000_000)
        }
    }

    @Test func statusesMapOntoRetryAndDead() async throws {
        let script: [(HTTPResponse.Status, HTTPFields)] = [
            (.serviceUnavailable, [.retryAfter: "7"]), (.tooManyRequests, [:]), (.requestTimeout, [:]),
            (.notFound, [:]), (.gone, [:]), (.badRequest, [:]),
        ]
        try await Self.withUpstream(script) { _, port in
            let forwarder = Forwarder(url: "http://127.0.0.1:\(port)/hook", signer: try WebhookSigner(secret: Self.secret))
            var outcomes: [UpstreamAnswer] = []
            for _ in script {
                outcomes.append(try await forwarder.forward(Self.response, id: "resp-1", receivedAt: Self.receivedAt, logger: Self.logger))
            }
            #expect(outcomes[0] == .retry(after: .seconds(7)))
            #expect(outcomes[1] == .retry(after: nil))
            #expect(outcomes[2] == .retry(after: nil))
            for outcome in outcomes[3...] {
                guard case .refused(let reason) = outcome else {
                    Issue.record("\(outcome) should be dead")
                    continue
                }
                #expect(reason.contains("which is not retried"))
                // Named by scheme, host and port: the path may hold the webhook's secret.
                #expect(reason.contains("http://127.0.0.1:\(port) answered") && !reason.contains("/hook"), "\(reason)")
            }
        }
    }

    @Test func aRefusedConnectionThrowsSoTheWorkerRetries() async throws {
        // A port that was just free: nothing listens there.
        let forwarder = Forwarder(
            url: "http://127.0.0.1:9/hook", signer: try WebhookSigner(secret: Self.secret),
            timeout: .seconds(2))
        let error = await #expect(throws: (any Error).self) {
            try await forwarder.forward(Self.response, id: "resp-1", receivedAt: Self.receivedAt, logger: Self.logger)
        }
        // What goes to the log and to lastError names the upstream without its path.
        #expect("\(error.map { "\($0)" } ?? "")".contains("http://127.0.0.1:9 could not be reached"))
        #expect(!"\(error.map { "\($0)" } ?? "")".contains("/hook"))
    }

    @Test func anUpstreamThatIsDownThenBackGetsEveryResponseOnceWithOneIdEach() async throws {
        let down: [(HTTPResponse.Status, HTTPFields)] = Array(repeating: (.serviceUnavailable, [:]), count: 4)
        try await Self.withUpstream(down) { upstream, port in
            let catalog = try Catalog(yaml: "category: invite\npayload: { inviteId: string }\nactions: [{ id: comment, title: C, input: {} }]\n")
            var builder = RouterBuilder(catalog: catalog)
            // An in-process handler of the test's own that forwards (the forwarder is the outbox's
            // transport, not a handler): the worker's retries and the webhook-id on each.
            let forwarder = Forwarder(url: "http://127.0.0.1:\(port)/hook", signer: try WebhookSigner(secret: Self.secret))
            builder.onAny { response, context in
                switch try await forwarder.forward(response, id: context.responseID, receivedAt: context.receivedAt, logger: context.logger) {
                case .delivered: .done
                case .retry(let after): .retry(after: after)
                case .refused(let reason): .fail(reason: reason)
                }
            }
            let store = InMemoryActionStore()
            let worker = HandlerTransport(
                store: store, router: try builder.build(), owner: "w", jitter: { 0 },
                logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
            for index in 0..<2 {
                _ = try await store.accept(
                    NewResponse(
                        id: "r\(index)",
                        response: ActionResponse(
                            category: "invite",
                            action: "comment", notificationID: "n\(index)", user: "u"), receivedAt: Date(timeIntervalSince1970: 0)))
            }
            // Two rounds hit the outage (2 × 2 answers of 503), the third gets through. Each round
            // runs when the responses are next due: the backoff counts from the end of an attempt,
            // however long the attempt took.
            var now = Date(timeIntervalSince1970: 1)
            for _ in 0..<3 {
                #expect(try await worker.deliverDue(now: now) == 2)
                let pending = try await [store.response(id: "r0"), store.response(id: "r1")].compactMap { $0 }.filter { $0.status == .pending }
                now = pending.map(\.nextAttemptAt).max() ?? now
            }
            #expect(try await store.response(id: "r0")?.status == .delivered)
            #expect(try await store.response(id: "r1")?.status == .delivered)
            let ids = await upstream.received.compactMap { $0.headers[HTTPField.Name("webhook-id")!] }
            #expect(ids.count == 6)
            #expect(Set(ids) == ["r0", "r1"])
            #expect(ids.filter { $0 == "r0" }.count == 3)  // the same id on every retry
        }
    }

    /// 301, 302, 303, 307 and 308 are failed attempts, never followed: the upstream sees one POST
    /// per attempt (a followed 307 or 308 would POST again; a followed 301, 302 or 303 would turn
    /// it into a GET and take any 2xx for a delivery), and the error names where it pointed.
    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsAFailedAttempt(status: Int) async throws {
        let redirect = HTTPResponse.Status(code: status)
        try await Self.withUpstream([(redirect, [.location: "/hook?moved=1"])]) { upstream, port in
            let forwarder = Forwarder(url: "http://127.0.0.1:\(port)/hook", signer: try WebhookSigner(secret: Self.secret))
            let error = await #expect(throws: (any Error).self) {
                try await forwarder.forward(Self.response, id: "resp-1", receivedAt: Self.receivedAt, logger: Self.logger)
            }
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains("answered HTTP \(status), a redirect to http://127.0.0.1:\(port)"), "\(text)")
            #expect(!text.contains("/hook"), "\(text)")
            #expect(await upstream.received.count == 1)
            // The next attempt, once the upstream answers 2xx, delivers.
            #expect(try await forwarder.forward(Self.response, id: "resp-1", receivedAt: Self.receivedAt, logger: Self.logger) == .delivered)
            #expect(await upstream.received.count == 2)
        }
    }
}
