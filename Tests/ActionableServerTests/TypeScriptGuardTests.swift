import ActionableTestSupport
import Foundation
import Testing

/// The generated TypeScript type guard on calls a real `serve` forwarded: taps made with
/// `actionable payload` and `actionable respond`, captured at the upstream, then checked by
/// `Tests/TypeScript/guard.test.ts` under Node's built-in test runner (compiled with tsc --strict).
@Suite(.timeLimit(.minutes(2)))
struct TypeScriptGuardTests {
    @Test func everyForwardedCallPassesTheGeneratedGuardAndAlteredOnesFail() async throws {
        try await ScriptedUpstream.run(answer: 204) { upstream, upstreamPort in
            let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(
                in: directory, port: port,
                extra: [
                    "--forward", "*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret",
                    "whsec_" + Data(repeating: 9, count: 32).base64EncodedString(),
                ])
            defer { server.signal() }
            let url = "http://127.0.0.1:\(port)"
            let taps: [(payload: [String], action: String, text: String?)] = [
                (["invite", "--body", "Dinner?", "--set", "inviteId=inv-1", "--set", "seats=2"], "accept", nil),
                (["invite", "--body", "Lunch?", "--set", "inviteId=inv-2", "--set", "eventName=Lunch"], "comment", "see you there"),
                (["invite", "--body", "Tea?", "--set", "inviteId=inv-3"], "com.apple.UNNotificationDefaultActionIdentifier", nil),
                (["login-approval", "--body", "New sign-in", "--set", "attemptId=a-1", "--set", "expiresAt=1800000000"], "approve", nil),
            ]
            var ids: [String] = []
            for (index, tap) in taps.enumerated() {
                let notification = try await CommandLineRunner.run(["payload"] + tap.payload + ["--user", "alice"], in: directory)
                let file = "n\(index).json"
                try notification.stdout.write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
                let respond = try await CommandLineRunner.run(
                    ["respond", tap.action, "--notification", file, "--url", url] + (tap.text.map { ["--text", $0] } ?? []), in: directory)
                #expect(respond.status == 0, "\(respond.stdout)")
                let id = try #require(respond.stdout.firstMatch(of: /"id":"([^"]+)"/).map { String($0.1) })
                ids.append(id)
            }
            var bodies: [String] = []
            for id in ids {
                try await upstream.delivered(id)
                bodies.append(String(decoding: try #require(await upstream.bodies[id]), as: UTF8.self))
            }
            let captured = directory.appendingPathComponent("bodies.json")
            try ("[" + bodies.joined(separator: ",") + "]").write(to: captured, atomically: true, encoding: .utf8)

            let folder = CommandLineRunner.repository.appendingPathComponent("Tests/TypeScript")
            let output = directory.appendingPathComponent("js")
            let compiled = try await CommandLineRunner.runTool(
                "tsc", ["--strict", "--module", "commonjs", "--outDir", output.path, "guard.test.ts"], in: folder, environment: [:])
            #expect(compiled.status == 0, "\(compiled.stdout)\(compiled.stderr)")
            let tested = try await CommandLineRunner.runTool(
                "node", ["--test", output.appendingPathComponent("guard.test.js").path], in: directory,
                environment: ["FORWARDED_BODIES": captured.path])
            #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
            #expect(tested.stdout.contains("# pass 2") && tested.stdout.contains("# fail 0"), "\(tested.stdout)")
        }
    }
}
