import ActionableCore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mixed load on the badge ledger of running `serve` processes: sends recorded by the backend
/// and taps on some of them (each sent several times, as a retrying phone does), all at once.
struct BadgeLoad: Sendable {
    static let backendToken = "badge-load-backend-token-0123456789"

    /// One request of the load.
    enum Operation: Sendable, Hashable {
        case send(notification: Int)
        case tap(notification: Int, copy: Int)
    }

    let users: Int
    let notifications: Int
    /// The notifications that are tapped (every third, and two of every three of the rest: 0 mod 3 and 1 mod 3).
    let tapped: Set<Int>
    /// The action bodies of the taps, by notification.
    let tapBodies: [Int: String]
    let prefix: String

    func user(of notification: Int) -> String { "\(prefix)-u\(notification % users)" }
    func id(of notification: Int) -> String { "\(prefix)-n\(notification)" }

    /// `notifications` sends spread over `users`; taps on two thirds of them, minted with `key`.
    static func make(notifications: Int, users: Int, key: ActionTokenKey) async throws -> BadgeLoad {
        let prefix = String(UUID().uuidString.prefix(8)).lowercased()
        let tapped = Set((0..<notifications).filter { $0 % 3 != 2 })
        let tokens = try await ActionTokens(keys: [key])
        var bodies: [Int: String] = [:]
        for notification in tapped.sorted() {
            let token = try await tokens.mint(
                user: "\(prefix)-u\(notification % users)", notificationID: "\(prefix)-n\(notification)", category: "invite",
                payload: ActionsEndpointTests.inviteDigest("\(notification)"))
            bodies[notification] =
                #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"\#(notification)"}}"#
        }
        return BadgeLoad(users: users, notifications: notifications, tapped: tapped, tapBodies: bodies, prefix: prefix)
    }

    /// Every operation, in a fixed interleaved order: a send, then taps (three copies each)
    /// spread out after it, so that some copies race their send.
    var operations: [Operation] {
        var operations: [Operation] = []
        for notification in 0..<notifications {
            operations.append(.send(notification: notification))
            if tapped.contains(notification) {
                for copy in 0..<3 { operations.append(.tap(notification: notification, copy: copy)) }
            }
        }
        // A deterministic shuffle (a fixed stride through the list), so copies are apart.
        let count = operations.count
        let stride = Self.coprimeStride(for: count)
        return (0..<count).map { operations[($0 * stride) % count] }
    }

    private static func coprimeStride(for count: Int) -> Int {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var stride = 7
        while gcd(stride, count) != 1 { stride += 1 }
        return stride
    }

    /// Runs `operation` against `port`; its status (0 for a network error).
    func run(_ operation: Operation, port: Int) async -> Int {
        switch operation {
        case .send(let notification):
            let body = #"{"user":"\#(user(of: notification))","notificationId":"\#(id(of: notification))","category":"invite"}"#
            return await Self.post("/v1/notifications", body: body, bearer: Self.backendToken, port: port)
        case .tap(let notification, _):
            return await Self.post("/v1/actions", body: tapBodies[notification] ?? "", bearer: nil, port: port)
        }
    }

    /// Whether `status` acknowledges `operation`: it was committed.
    static func acknowledged(_ operation: Operation, status: Int) -> Bool {
        switch operation {
        case .send: return status == 201 || status == 200
        case .tap: return status == 202 || status == 200
        }
    }

    /// Runs every operation once, with `clients` concurrent clients; `port(i)` picks the
    /// instance of the `i`th operation. Returns the acknowledged operations.
    func runAll(
        clients: Int, port: @escaping @Sendable (Int) -> Int, after: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        async -> Set<Operation>
    {
        let operations = self.operations
        let acknowledged = Acknowledged()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    for index in stride(from: client, to: operations.count, by: clients) {
                        let status = await run(operations[index], port: port(index))
                        if Self.acknowledged(operations[index], status: status) {
                            await after(await acknowledged.add(operations[index]))
                        }
                    }
                }
            }
        }
        return await acknowledged.all
    }

    /// The badge every user should have once every operation is in: sends not tapped.
    var expectedBadges: [String: Int] {
        var badges: [String: Int] = [:]
        for user in 0..<users { badges["\(prefix)-u\(user)"] = 0 }
        for notification in 0..<notifications where !tapped.contains(notification) { badges[user(of: notification), default: 0] += 1 }
        return badges
    }

    /// Every user's badge as the server on `port` reports it.
    func badges(port: Int) async throws -> [String: Int] {
        var badges: [String: Int] = [:]
        for user in 0..<users {
            let name = "\(prefix)-u\(user)"
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/badge/\(name)")!)
            request.setValue("Bearer \(Self.backendToken)", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession.shared.data(for: request)
            badges[name] = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["badge"] as? Int ?? -1
        }
        return badges
    }

    static func post(_ path: String, body: String, bearer: String?, port: Int) async -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(body.utf8)
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return 0 }
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    actor Acknowledged {
        private(set) var all: Set<Operation> = []
        func add(_ operation: Operation) -> Int {
            all.insert(operation)
            return all.count
        }
    }
}
