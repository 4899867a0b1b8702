import ActionableSQLite
import ActionableTestSupport
import ActionableTokens
import ActionableWire
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The device registry through real `serve` processes: every acknowledged registration survives
/// kill -9, and two instances sharing PostgreSQL register each token once.
@Suite(.timeLimit(.minutes(3)))
struct DeviceLoadTests {
    static let appKey = "app=app-secret-of-at-least-thirty-two-bytes!"
    static let extra = ["--app-jwt-key", appKey, "--backend-token", BadgeLoad.backendToken]

    /// 240 registrations: 12 users, 20 tokens each.
    static let registrations: [(user: String, token: String)] = (0..<240).map { index in
        ("user-\(index % 12)", String(format: "%064x", 0xA000_0000 + index))
    }

    static func jwts() async throws -> [String: String] {
        let tokens = await AppTokens(keys: [try ActionTokenKey(parsing: appKey)])
        var jwts: [String: String] = [:]
        for user in Set(registrations.map(\.user)) { jwts[user] = try await tokens.mint(user: user, keyID: "app") }
        return jwts
    }

    static func register(_ token: String, jwt: String, port: Int) async -> Int? {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/devices")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(jwt)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"token":"\#(token)","environment":"production"}"#.utf8)
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return nil }
        return (response as? HTTPURLResponse)?.statusCode
    }

    static func devices(of user: String, port: Int) async throws -> [String] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/devices/\(user)")!)
        request.setValue("Bearer \(BadgeLoad.backendToken)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONDecoder().decode(DeviceList.self, from: data).items.map(\.token)
    }

    actor Acknowledged {
        private(set) var statuses: [Int: Int] = [:]
        func add(_ index: Int, _ status: Int) { statuses[index] = status }
        var count: Int { statuses.count }
    }

    @Test func everyAcknowledgedRegistrationSurvivesKillNine() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jwts = try await Self.jwts()
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: Self.extra)
        defer { server.signal() }
        let acknowledged = Acknowledged()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    for index in stride(from: client, to: Self.registrations.count, by: 16) {
                        let (user, token) = Self.registrations[index]
                        guard let status = await Self.register(token, jwt: jwts[user] ?? "", port: port), status == 201 else { continue }
                        await acknowledged.add(index, status)
                        if await acknowledged.count == 80 { server.signal(SIGKILL) }
                    }
                }
            }
        }
        await server.exit()
        #expect(server.terminationReason == .uncaughtSignal)
        let survivors = await acknowledged.statuses.keys.sorted()
        #expect(survivors.count >= 80)
        #expect(survivors.count < Self.registrations.count)  // the kill came mid-burst

        let restarted = try await ServerProcess.serve(in: directory, port: port, extra: Self.extra)
        defer { restarted.signal() }
        for index in survivors {
            let (user, token) = Self.registrations[index]
            #expect(try await Self.devices(of: user, port: port).contains(token), "registration \(index) acknowledged before the crash")
            // And registering it again finds it: 200, known.
            #expect(await Self.register(token, jwt: jwts[user] ?? "", port: port) == 200)
        }
        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
            "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
    func twoInstancesSharingPostgreSQLRegisterEachTokenOnce() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let jwts = try await Self.jwts()
        let ports = try [ServerProcess.freePort(), ServerProcess.freePort()]
        let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: ["--storage", url] + Self.extra)
        defer { first.signal() }
        let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: ["--storage", url] + Self.extra)
        defer { second.signal() }
        // Each token registered four times at once, twice through each instance; four tokens at
        // a time (16 requests in flight, as the other load tests keep it).
        var statuses: [Int: [Int?]] = [:]
        for batch in stride(from: 0, to: 60, by: 4) {
            let answers = await withTaskGroup(of: (Int, Int?).self) { group in
                for index in batch..<batch + 4 {
                    for copy in 0..<4 {
                        group.addTask {
                            let (user, token) = Self.registrations[index]
                            return (index, await Self.register(token, jwt: jwts[user] ?? "", port: ports[copy % 2]))
                        }
                    }
                }
                return await group.reduce(into: [(Int, Int?)]()) { $0.append($1) }
            }
            for (index, status) in answers { statuses[index, default: []].append(status) }
        }
        for index in 0..<60 {
            let answers = statuses[index] ?? []
            #expect(answers.filter { $0 == 201 }.count == 1, "token \(index): \(answers)")
            #expect(answers.filter { $0 == 200 }.count == 3, "token \(index): \(answers)")
        }
        for user in Set(Self.registrations.prefix(60).map(\.user)) {
            let expected = Self.registrations.prefix(60).filter { $0.user == user }.map(\.token)
            #expect(Set(try await Self.devices(of: user, port: ports[0])) == Set(expected))
            #expect(try await Self.devices(of: user, port: ports[1]).count == expected.count)
        }
    }
}
