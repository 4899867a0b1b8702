import ActionableCore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

/// `actionable payload` as docs/command-line.md describes it, run as a process.
struct PayloadCommandTests {
    func run(
        _ arguments: [String], in directory: URL = CommandLineRunner.repository
    ) async throws
        -> (status: Int32, out: String, err: String)
    {
        let run = try await CommandLineRunner.run(arguments, in: directory)
        return (run.status, run.stdout, run.stderr)
    }

    @Test func printsTheJSONWithTheCategoryAndTypedValues() async throws {
        let run = try await run([
            "payload", "invite", "--title", "Dinner?", "--body", "Sam invited you", "--badge", "1",
            "--sound", "default", "--thread-id", "t1", "--set", "inviteId=42", "--set", "seats=3", "--content-available",
        ])
        #expect(run.status == 0, "\(run.err)")
        #expect(
            run.out
                == #"{"aps":{"alert":{"title":"Dinner?","body":"Sam invited you"},"badge":1,"sound":"default","thread-id":"t1","category":"invite","content-available":1},"inviteId":"42","seats":3}"#
                + "\n")
    }

    @Test func aRetiredCategoryIsRefused() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "Categories/survey.yaml": "category: survey\nretired: true\nactions: [{ id: answer, title: Answer }]\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await run(["payload", "survey", "--body", "b"], in: directory)
        #expect(run.status == 1)
        #expect(run.err.contains("category \"survey\" is retired"))
        #expect(run.out.isEmpty)
    }

    @Test func aTokenIsMintedForTheUserWithTheGivenKey() async throws {
        let key = "k1=0123456789abcdef0123456789abcdef"
        let run = try await run([
            "payload", "invite", "--body", "b", "--set", "inviteId=42", "--user", "alice",
            "--token-key", key, "--expires", "1h", "--notification-id", "n-9",
        ])
        #expect(run.status == 0, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let token = try #require(object["actionToken"] as? String)
        let verified = try await ActionTokens(keys: [ActionTokenKey(parsing: key)]).verify(token)
        #expect(verified.user == "alice")
        #expect(verified.notificationID == "n-9")
        #expect(verified.category == "invite")
        #expect(abs(verified.expiresAt.timeIntervalSince(verified.issuedAt) - 3600) < 1)
    }

    @Test(arguments: [
        (["payload", "invit", "--body", "b"], "category \"invit\" is not in the catalog at Categories (did you mean \"invite\"?)"),
        (["payload", "invite", "--body", "b"], "payload key \"inviteId\" is required by the category's payload schema"),
        (
            ["payload", "invite", "--body", "b", "--set", "inviteId=1", "--set", "seats=three"],
            "payload key \"seats\" is integer in the category's schema; \"three\" is not"
        ),
        (
            ["payload", "invite", "--body", "b", "--set", "inviteId=1", "--set", "seat=3"],
            "payload key \"seat\" is not declared by the category (did you mean \"seats\"?); declared: inviteId, eventName, seats"
        ),
        (
            ["payload", "invite", "--body", String(repeating: "x", count: 5000), "--set", "inviteId=1"],
            "bytes; APNs accepts at most 4096 bytes for alert pushes"
        ),
    ])
    func refusalsExitOneWithAClearMessage(arguments: [String], message: String) async throws {
        let run = try await run(arguments)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
        #expect(run.err.contains(message), "\(run.err)")
    }

    @Test func theSizeMessageNamesTheByteCount() async throws {
        let run = try await run(["payload", "invite", "--body", String(repeating: "é", count: 2100), "--set", "inviteId=1"])
        #expect(run.status == 1)
        #expect(run.err.contains("the payload is 42"))  // 4200 bytes of body plus the rest
    }

    @Test func usageErrorsExitTwo() async throws {
        #expect(try await run(["payload", "invite", "--token-key", "k=0123456789abcdef0123456789abcdef"]).status == 2)
        #expect(try await run(["payload", "invite", "--user", "u", "--expires", "soon"]).status == 2)
        #expect(try await run(["payload"]).status == 2)
    }

    @Test func withoutATokenKeyTheDevelopmentKeyIsUsedWithAWarning() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-payload-\(UUID())")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Categories"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "category: ping\n".write(to: directory.appendingPathComponent("Categories/ping.yaml"), atomically: true, encoding: .utf8)
        let first = try await run(["payload", "ping", "--body", "b", "--user", "u"], in: directory)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.err.contains("development key"))
        #expect(first.err.contains("(created now)"))
        let second = try await run(["payload", "ping", "--body", "b", "--user", "u"], in: directory)
        #expect(!second.err.contains("(created now)"))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".actionable/development-token-key").path))
    }

    @Test func androidPrintsAnFCMDataMessageAndRefusesAPNsOnlySettings() async throws {
        let message = try await run([
            "payload", "invite", "--platform", "android", "--title", "Dinner?", "--body", "Sam invited you", "--set", "inviteId=42",
            "--set", "seats=3", "--ttl", "1h", "--collapse-key", "inv-42", "--device-token", "fcm-1", "--notification-id", "n-7", "--badge", "2",
        ])
        #expect(message.status == 0, "\(message.err)")
        // The notification's id goes in the data (the app posts and reports under it), and the badge when given.
        #expect(
            message.out
                == #"{"message":{"token":"fcm-1","data":{"category":"invite","title":"Dinner?","body":"Sam invited you","notificationId":"n-7","badge":"2","inviteId":"42","seats":"3"},"android":{"priority":"high","ttl":"3600s","collapse_key":"inv-42"}}}"#
                + "\n")
        // Without an id, one is made: the token's jti and the data's notificationId are the same.
        let made = try await run(["payload", "invite", "--platform", "android", "--set", "inviteId=42", "--user", "u"])
        let id = try #require(made.out.firstMatch(of: /"notificationId":"([^"]+)"/).map { String($0.1) }, "\(made.out)")
        let token = try #require(made.out.firstMatch(of: /"actionToken":"[^.]+\.([^.]+)\./).map { String($0.1) })
        var claims = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while claims.count % 4 != 0 { claims += "=" }
        #expect(String(decoding: Data(base64Encoded: claims) ?? Data(), as: UTF8.self).contains(#""jti":"\#(id)""#))
        let sound = try await run(["payload", "invite", "--platform", "android", "--sound", "ding", "--set", "inviteId=42"])
        #expect(sound.status == 2 && sound.err.contains("--sound are APNs settings"), "\(sound.err)")
        let ttl = try await run(["payload", "invite", "--ttl", "1h", "--set", "inviteId=42"])
        #expect(ttl.status == 2 && ttl.err.contains("--ttl go with --platform android"), "\(ttl.err)")
        let missing = try await run(["payload", "invite", "--platform", "android"])
        #expect(missing.status == 1 && missing.err.contains("inviteId"), "\(missing.err)")
    }
}
