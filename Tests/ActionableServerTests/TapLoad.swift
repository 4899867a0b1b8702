import ActionableCore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Clients tapping as apps do while a fault is made under the server: each client sends a new tap
/// (a notification of its own, a valid token) to the instances in turn, and sends the same tap
/// again on any answer but 2xx — as ActionableClient and a backend do — until it is accepted.
/// Every answer is kept with how long it took, and the id of every tap answered 2xx.
final class TapLoad: Sendable {
    /// One answer: its status (0: none came), whether it carried `Retry-After`, how long it took.
    struct Answer: Sendable {
        var status: Int
        var retryAfter: Bool
        var seconds: Double
        var port: Int
        var failure: String?
    }

    private struct State {
        var answers: [Answer] = []
        var accepted: [String] = []
        var stopped = false
    }
    private let state = Mutex(State())
    private let ports: [Int]
    private let tokens: ActionTokens
    /// How long a client waits for an answer before it counts the call as hung.
    let deadline: TimeInterval

    init(ports: [Int], tokens: ActionTokens, deadline: TimeInterval = 12) {
        self.ports = ports
        self.tokens = tokens
        self.deadline = deadline
    }

    /// Every answer so far.
    var answers: [Answer] { state.withLock { $0.answers } }
    /// The ids of the taps answered 2xx so far.
    var accepted: [String] { state.withLock { $0.accepted } }

    /// Stops the clients after their call in flight.
    func stop() { state.withLock { $0.stopped = true } }

    /// Runs `clients` clients until ``stop()``.
    func run(clients: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask { await self.client(client) }
            }
        }
    }

    /// Returns once `count` more taps were accepted than `after`; throws if they never are.
    func accepted(_ count: Int, after: Int, limit: Duration = .seconds(60)) async throws {
        try await within("\(count) taps accepted after the first \(after)", limit: limit) {
            while self.accepted.count < after + count {
                try await Task.sleep(for: .milliseconds(50))  // polling the load's own counter
            }
        }
    }

    /// Expects every answer so far to be 2xx, or 503 with `Retry-After`, within 10 s: none a 500,
    /// none hung.
    func expectEveryAnswerIsA2xxOrA503WithinTenSeconds(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let answers = self.answers
        let wrong = answers.filter { !((200..<300).contains($0.status) || ($0.status == 503 && $0.retryAfter)) }
        #expect(wrong.isEmpty, "answers that are neither 2xx nor 503 with Retry-After: \(wrong.prefix(5))", sourceLocation: sourceLocation)
        let slow = answers.filter { $0.seconds > 10 }
        #expect(slow.isEmpty, "answers that took more than 10 s: \(slow.prefix(5))", sourceLocation: sourceLocation)
    }

    /// Returns once every tap answered 2xx arrived at `upstream`; throws if one does not within 90 s.
    func everyAcceptedTapArrived(at upstream: HostileUpstream) async throws {
        let accepted = Set(self.accepted)
        try await within("every accepted tap delivered", limit: .seconds(90)) {
            while !accepted.isSubset(of: Set(upstream.arrivals)) { try await Task.sleep(for: .milliseconds(100)) }
        }
    }

    private func client(_ client: Int) async {
        let session = URLSession(configuration: .ephemeral)
        var turn = client
        while !state.withLock({ $0.stopped }) {
            guard let body = try? await tap() else { return }
            while true {
                let port = ports[turn % ports.count]
                turn += 1
                let answer = await send(body, port: port, session: session)
                let done = state.withLock { state -> Bool in
                    state.answers.append(answer.0)
                    if let id = answer.1 { state.accepted.append(id) }
                    return answer.1 != nil
                }
                if done { break }
                // The client's own pause before it sends the tap again (a backoff, not a wait for the server).
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func tap() async throws -> String {
        let token = try await tokens.mint(
            user: "dana", notificationID: "n-\(UUID())", category: "invite", payload: ActionsEndpointTests.inviteDigest("7"))
        return #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"7"}}"#
    }

    private func send(_ body: String, port: Int, session: URLSession) async -> (Answer, String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions")!)
        request.httpMethod = "POST"
        request.timeoutInterval = deadline
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let start = Date()
        do {
            let (data, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            let status = http?.statusCode ?? 0
            let answer = Answer(
                status: status, retryAfter: http?.value(forHTTPHeaderField: "Retry-After") != nil,
                seconds: Date().timeIntervalSince(start), port: port)
            guard (200..<300).contains(status) else { return (answer, nil) }
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            return (answer, json?["id"] as? String)
        } catch {
            return (Answer(status: 0, retryAfter: false, seconds: Date().timeIntervalSince(start), port: port, failure: "\(error)"), nil)
        }
    }
}
