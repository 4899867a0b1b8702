import ActionableClient
import ActionableTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A directory with the example categories, where `actionable payload` mints notifications and
/// `actionable serve` accepts their answers (both use the development key under .actionable/),
/// and a report queue of its own.
final class ClientFixture: Sendable {
    let directory: URL
    var reportQueue: URL { directory.appendingPathComponent("report queue") }

    init() throws {
        directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// The APNs payload `actionable payload` prints, as iOS hands it to the app in `userInfo`.
    func userInfo(
        category: String = "invite", set: [String] = ["inviteId=42"], user: String = "alice", notificationID: String
    ) async throws -> [AnyHashable: Any] {
        let run = try await CommandLineRunner.run(
            ["payload", category, "--body", "b", "--user", user, "--notification-id", notificationID] + set.flatMap { ["--set", $0] },
            in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    /// A report of `action` on a fresh invite notification `notificationID`.
    func report(_ action: String, notificationID: String, text: String? = nil) async throws -> ActionReport {
        try await ActionReport(
            userInfo: try userInfo(notificationID: notificationID), categoryIdentifier: "invite", actionIdentifier: action,
            notificationIdentifier: notificationID, userText: text)
    }

    /// A reporter for the server on `port` with this fixture's report queue.
    /// A reporter to `port`. A test that leaves the request timeout at its default gets a minute:
    /// on a loaded CI machine a loopback answer once took longer than the 15 s default, and the
    /// test was about the answer, not the time.
    func reporter(port: Int, options: ActionReporter.Options = .init(log: { _ in })) -> ActionReporter {
        var options = options
        if options.requestTimeout == ActionReporter.Options(log: { _ in }).requestTimeout { options.requestTimeout = 60 }
        return ActionReporter(endpoint: URL(string: "http://127.0.0.1:\(port)/")!, reportQueue: reportQueue, options: options)
    }

    /// `actionable serve` on `port`, forwarding every answer to `upstream`. The upstream runs in
    /// the test process, beside the rest of the suite: it gets 30 s to answer (not the 10 s
    /// default), so that a loaded machine never turns a slow answer into a second call and the
    /// tests can count calls exactly.
    func serve(port: Int, upstream: Int, extra: [String] = []) async throws -> ServerProcess {
        try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--forward", "*=http://127.0.0.1:\(upstream)/taps", "--forward-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                "--admin-token", "operator-token-0123456789abcdefghijkl", "--forward-timeout", "30s", "--delivery-lease", "40s",
                "--shutdown-grace", "45s",
            ] + extra)
    }

    /// The operator's view of response `id` (`GET /v1/actions/{id}`).
    /// The stored response's status once it is no longer `pending` (the delivery's outcome is
    /// recorded after the upstream answered, so right after the upstream saw it, it may still
    /// be pending); `pending` if it stays so through `reads` reads.
    static func statusAfterPending(_ id: String, port: Int, reads: Int = 2_000) async throws -> String? {
        var status: String?
        for _ in 0..<reads {
            status = try await stored(id, port: port)["status"] as? String
            if status != "pending" { break }
            await Task.yield()
        }
        return status
    }

    static func stored(_ id: String, port: Int) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions/\(id)")!)
        request.setValue("Bearer operator-token-0123456789abcdefghijkl", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

/// An upstream that records every forwarded answer and hands each to whoever waits for its id.
actor RecordingUpstream {
    /// One forwarded body.
    struct Forwarded: Sendable {
        let json: Data
        var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: json)) as? [String: Any]) ?? [:] }
        var id: String? { object["id"] as? String }
        subscript(key: String) -> Any? { object[key] }
    }

    private(set) var received: [Forwarded] = []
    private var waiters: [(id: String, continuation: CheckedContinuation<Forwarded, Never>)] = []
    private var countWaiters: [(count: Int, continuation: CheckedContinuation<[Forwarded], Never>)] = []

    func record(_ body: Forwarded) {
        received.append(body)
        let id = body.id
        waiters.removeAll { waiter in
            guard waiter.id == id else { return false }
            waiter.continuation.resume(returning: body)
            return true
        }
        countWaiters.removeAll { waiter in
            guard received.count >= waiter.count else { return false }
            waiter.continuation.resume(returning: received)
            return true
        }
    }

    /// Every forwarded body, once at least `count` arrived.
    func deliveries(count: Int) async throws -> [Forwarded] {
        try await within("\(count) deliveries") { await self.park(count: count) }
    }

    private func park(count: Int) async -> [Forwarded] {
        if received.count >= count { return received }
        return await withCheckedContinuation { countWaiters.append((count, $0)) }
    }

    /// The forwarded body of response `id`, once it arrives.
    func delivery(of id: String) async throws -> Forwarded {
        try await within("the delivery of \(id)") { await self.park(id: id) }
    }

    private func park(id: String) async -> Forwarded {
        if let body = received.first(where: { $0.id == id }) { return body }
        return await withCheckedContinuation { waiters.append((id, $0)) }
    }

    /// How many deliveries of `id` arrived.
    func count(of id: String) -> Int { received.filter { $0.id == id }.count }

    /// Runs `body` with a live upstream on a free port of loopback.
    static func run(_ body: @escaping @Sendable (RecordingUpstream, Int) async throws -> Void) async throws {
        let upstream = RecordingUpstream()
        let router = Router()
        router.post("/taps") { request, _ -> Response in
            let data = try await request.body.collect(upTo: 1 << 20)
            await upstream.record(Forwarded(json: Data(String(buffer: data).utf8)))
            return Response(status: .noContent)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(upstream, try #require(client.port))
        }
    }
}
