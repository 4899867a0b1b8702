import ActionableTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A stand-in server whose answers a test scripts, for the statuses a real server gives only
/// under load or failure (408, 429, 5xx). Each request may be held until the test releases it.
actor ScriptedServer {
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body: String = ""

        static func problem(_ status: Int, _ name: String, _ detail: String, headers: [String: String] = [:]) -> Answer {
            Answer(
                status: status, headers: headers.merging(["Content-Type": "application/problem+json"]) { $1 },
                body: #"{"type":"https://actionable.dev/problems/\#(name)","title":"t","status":\#(status),"detail":"\#(detail)"}"#)
        }
        static let accepted = Answer(status: 202, body: #"{"id":"r-1","status":"accepted"}"#)
    }

    private var script: [Answer] = []
    private(set) var requests: [(authorization: String?, body: String)] = []
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Queues answers, in order; when none is left, requests get 202.
    func answer(_ answers: Answer...) { script.append(contentsOf: answers) }

    /// Holds every request until ``release()``.
    func hold() { holding = true }

    func release() {
        holding = false
        for continuation in held { continuation.resume() }
        held = []
    }

    /// Returns once `count` requests have arrived.
    func arrivals(_ count: Int) async throws {
        try await within("\(count) requests") { await self.park(count) }
    }

    private func park(_ count: Int) async {
        if requests.count >= count { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }

    var count: Int { requests.count }

    fileprivate func take(authorization: String?, body: String) async -> Answer {
        requests.append((authorization, body))
        arrivalWaiters.removeAll { waiter in
            guard requests.count >= waiter.count else { return false }
            waiter.continuation.resume()
            return true
        }
        if holding { await withCheckedContinuation { held.append($0) } }
        return script.isEmpty ? .accepted : script.removeFirst()
    }

    /// Runs `body` with the server live on a free port of loopback.
    static func run(_ body: @escaping @Sendable (ScriptedServer, Int) async throws -> Void) async throws {
        let server = ScriptedServer()
        let router = Router()
        router.post("/v1/actions") { request, _ -> Response in
            let data = try await request.body.collect(upTo: 1 << 20)
            let answer = await server.take(authorization: request.headers[.authorization], body: String(buffer: data))
            var fields = HTTPFields()
            for (name, value) in answer.headers { fields[HTTPField.Name(name)!] = value }
            return Response(
                status: .init(code: answer.status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(server, try #require(client.port))
        }
    }
}
