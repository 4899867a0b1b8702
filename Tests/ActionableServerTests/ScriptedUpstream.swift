import ActionableService
import ActionableStore
import ActionableTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

/// An upstream whose answer the test sets (an HTTP status), recording every delivery's
/// `webhook-id` and status, and waking whoever waits for a delivery it answered with 2xx.
actor ScriptedUpstream {
    private(set) var answer: Int
    private(set) var failuresLeft: Int
    private(set) var calls: [(id: String, status: Int)] = []
    /// The body of each delivery, by `webhook-id` (the last one).
    private(set) var bodies: [String: Data] = [:]
    private var waiters: [(id: String, minimum: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(answer: Int, failFirst: Int = 0) {
        self.answer = answer
        self.failuresLeft = failFirst
    }

    /// From now on, answer `status`.
    func set(_ status: Int) { answer = status }

    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    /// From now on, a call waits (unanswered, unrecorded) until ``release()``.
    func hold() { holding = true }

    /// Lets the held calls, and every later one, through.
    func release() {
        holding = false
        for continuation in held { continuation.resume() }
        held = []
    }

    fileprivate func waitWhileHeld() async {
        if holding { await withCheckedContinuation { held.append($0) } }
    }

    fileprivate func take(_ id: String, body: Data) -> Int {
        bodies[id] = body
        let status: Int
        if failuresLeft > 0 {
            failuresLeft -= 1
            status = 503
        } else {
            status = answer
        }
        calls.append((id, status))
        let delivered = calls.filter { $0.id == id && (200..<300).contains($0.status) }.count
        waiters.removeAll { waiter in
            guard waiter.id == id, delivered >= waiter.minimum else { return false }
            waiter.continuation.resume()
            return true
        }
        return status
    }

    /// Returns once `id` was answered 2xx at least `times` times.
    func delivered(_ id: String, times: Int = 1) async throws {
        try await within("\(id) delivered \(times) times") { await self.parkUntilDelivered(id, times: times) }
    }

    private func parkUntilDelivered(_ id: String, times: Int) async {
        if calls.filter({ $0.id == id && (200..<300).contains($0.status) }).count >= times { return }
        await withCheckedContinuation { waiters.append((id, times, $0)) }
    }

    /// How many tries `id` had.
    func tries(of id: String) -> Int { calls.filter { $0.id == id }.count }
    /// The statuses `id` was answered, in order.
    func statuses(of id: String) -> [Int] { calls.filter { $0.id == id }.map(\.status) }

    /// Runs `body` with the upstream live on a free port of loopback (`/rsvp`).
    static func run(answer: Int, failFirst: Int = 0, _ body: @escaping @Sendable (ScriptedUpstream, Int) async throws -> Void) async throws {
        let upstream = ScriptedUpstream(answer: answer, failFirst: failFirst)
        let router = Router()
        router.post("/rsvp") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            // Recorded by response id (the webhook-id).
            let webhookID = request.headers[HTTPField.Name("webhook-id")!] ?? ""
            await upstream.waitWhileHeld()
            let status = await upstream.take(Forwarded.responseID(of: webhookID), body: Data(buffer: body))
            return Response(status: .init(code: status))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(upstream, try #require(client.port)) }
    }
}

/// The `webhook-id` of a delivery to an endpoint a `--forward` flag seeded.
enum Forwarded {
    /// The `webhook-id` of response `responseID`'s delivery to any endpoint: the response id.
    static func webhookID(_ responseID: String) -> String { responseID }

    /// The response id a `webhook-id` names: itself.
    static func responseID(of webhookID: String) -> String { webhookID }
}
