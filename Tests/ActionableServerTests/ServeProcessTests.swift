import ActionableStore
import ActionableTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `actionable serve` as a process: it accepts, stops cleanly on SIGTERM, and what it accepted
/// is still there when it starts again.
struct ServeProcessTests {
    /// A free loopback port, from the kernel.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts the server and returns once it logs that it listens.
    static func startServer(in directory: URL, port: Int, extra: [String] = []) throws -> Process {
        let (process, output) = try start(CommandLineRunner.binary, ["serve", "--port", String(port)] + extra, in: directory)
        _ = try waitFor("listening on", in: output)
        // Keep draining the pipe so that logging never blocks the server.
        output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return process
    }

    /// Starts `executable` with its output in a pipe (and `environment` added to this process's).
    static func start(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:])
        throws -> (Process, Pipe)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    /// Reads `output` until `text` appears (the process's own signal, not a timer); throws if
    /// the process closes its output first.
    static func waitFor(_ text: String, in output: Pipe) throws -> String {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(text) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw ServeFailed(log: String(decoding: seen, as: UTF8.self)) }
            seen.append(chunk)
        }
        return String(decoding: seen, as: UTF8.self)
    }

    struct ServeFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "the server exited before listening:\n\(log)" }
    }

    static func post(_ body: String, port: Int) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    @Test func acceptedResponsesSurviveARestartAndSIGTERMExitsZero() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The payload command and the server share the development key under .actionable/.
        let payload = try CommandLineRunner.run(["payload", "invite", "--body", "b", "--set", "inviteId=42",
            "--user", "alice", "--notification-id", "n-restart"], in: directory)
        #expect(payload.status == 0, "\(payload.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(payload.stdout.utf8)) as? [String: Any]
        let token = try #require(object?["actionToken"] as? String)
        let body = #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#

        let port = try Self.freePort()
        let first = try Self.startServer(in: directory, port: port)
        let (status, accepted) = try await Self.post(body, port: port)
        #expect(status == 202)
        let id = try #require(accepted["id"] as? String)
        first.terminate()  // SIGTERM
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)

        let second = try Self.startServer(in: directory, port: port)
        defer { if second.isRunning { second.terminate(); second.waitUntilExit() } }
        let (againStatus, again) = try await Self.post(body, port: port)
        #expect(againStatus == 200)
        #expect(again["status"] as? String == "duplicate")
        #expect(again["id"] as? String == id)
        second.terminate()
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)

        let store = try await SQLiteActionStore(path: directory.appendingPathComponent(".actionable/actionable.sqlite").path)
        #expect(try await store.integrityCheck() == "ok")
        #expect(try await store.action(id: id)?.response.user == "alice")
    }

    @Test func respondPostsWhatTheAppWouldAndExitsOneOnRefusal() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try CommandLineRunner.run(["payload", "invite", "--body", "b", "--set", "inviteId=42", "--user", "cy"],
            in: directory)
        try payload.stdout.write(to: directory.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)
        let port = try Self.freePort()
        let server = try Self.startServer(in: directory, port: port)
        defer { server.terminate(); server.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)"
        let accepted = try CommandLineRunner.run(["respond", "accept", "--notification", "notification.json", "--url", url], in: directory)
        #expect(accepted.status == 0)
        #expect(accepted.stdout.hasPrefix("HTTP 202 "))
        let again = try CommandLineRunner.run(["respond", "accept", "--notification", "notification.json", "--url", url], in: directory)
        #expect(again.stdout.hasPrefix("HTTP 200 "))
        #expect(again.stdout.contains("duplicate"))
        let other = try CommandLineRunner.run(["respond", "decline", "--notification", "notification.json", "--url", url], in: directory)
        #expect(other.status == 1)
        #expect(other.stdout.hasPrefix("HTTP 409 "))
    }

    /// The README's walkthrough: invite-service, serve --forward, payload, respond → one RSVP.
    @Test(.timeLimit(.minutes(1)))
    func theReadmeWalkthroughRecordsOneRSVP() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "whsec_ZXhhbXBsZS1pbnZpdGUtc2VydmljZS1zZWNyZXQ="
        let servicePort = try Self.freePort()
        let (service, serviceOutput) = try Self.start(
            CommandLineRunner.binary.deletingLastPathComponent().appendingPathComponent("invite-service"),
            ["--port", String(servicePort), "--secret", secret], in: directory)
        defer { service.terminate(); service.waitUntilExit() }
        _ = try Self.waitFor("listening on", in: serviceOutput)
        let port = try Self.freePort()
        let server = try Self.startServer(in: directory, port: port, extra: [
            "--forward", "invite.*=http://127.0.0.1:\(servicePort)/rsvp", "--forward-secret", secret,
        ])
        defer { server.terminate(); server.waitUntilExit() }
        let payload = try CommandLineRunner.run(["payload", "invite", "--body", "Team dinner", "--set", "inviteId=inv-42",
            "--user", "alice"], in: directory)
        try payload.stdout.write(to: directory.appendingPathComponent("notification.json"), atomically: true, encoding: .utf8)
        let url = "http://127.0.0.1:\(port)"
        for _ in 0..<2 {  // the phone retries: one RSVP all the same
            let tap = try CommandLineRunner.run(["respond", "accept", "--notification", "notification.json", "--url", url],
                in: directory)
            #expect(tap.status == 0)
        }
        let log = try Self.waitFor("recorded RSVP: alice accept inv-42", in: serviceOutput)
        #expect(log.components(separatedBy: "recorded RSVP").count == 2)
    }

    /// Flags win over ACTIONABLE_* environment variables, which win over the --config file.
    @Test(.timeLimit(.minutes(1)))
    func settingsComeFromFlagsThenEnvironmentThenTheConfigFile() async throws {
        let ports = try (0..<3).map { _ in try Self.freePort() }
        let directory = try CommandLineRunner.temporaryDirectory([
            "serve.json": #"{"port": \#(ports[0]), "admin-token": "from-file"}"#,
        ], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [([String], [String: String], Int)] = [
            (["serve", "--config", "serve.json"], [:], ports[0]),
            (["serve", "--config", "serve.json"], ["ACTIONABLE_PORT": String(ports[1])], ports[1]),
            (["serve", "--config", "serve.json", "--port", String(ports[2])], ["ACTIONABLE_PORT": String(ports[1])], ports[2]),
        ]
        for (arguments, environment, port) in cases {
            let (server, output) = try Self.start(CommandLineRunner.binary, arguments, in: directory, environment: environment)
            defer { server.terminate(); server.waitUntilExit() }
            _ = try Self.waitFor("listening on 127.0.0.1:\(port)", in: output)
            output.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
            // The admin token came from the file: the status endpoint exists and accepts it.
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/actions/unknown")!)
            request.setValue("Bearer from-file", forHTTPHeaderField: "Authorization")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 404)
        }
        let bad = try CommandLineRunner.run(["serve", "--config", "missing.json"], in: directory)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--config missing.json: no such file"))
    }
}
