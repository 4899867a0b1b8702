import ActionableTestSupport
import Foundation
import Testing

/// `actionable respond` against a server that is not there.
struct RespondCommandTests {
    @Test func aRefusedConnectionIsReportedWithItsReasonNotRetriedUntilATimeout() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([
            "notification.json": #"{"aps":{"category":"invite","alert":"x"},"inviteId":"1","actionToken":"t"}"#
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        // A port nothing listens on: the kernel gave it out, and the socket that held it is closed.
        let port = try ServeProcessTests.freePort()
        let run = try await CommandLineRunner.run(
            ["respond", "accept", "--notification", "notification.json", "--url", "http://127.0.0.1:\(port)"], in: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot reach http://127.0.0.1:\(port)"), "\(run.stderr)")
        // The connection's own error, not a deadline reached after retrying it.
        #expect(run.stderr.contains("Connection refused"), "\(run.stderr)")
        #expect(run.stderr.contains("is actionable serve running there?"))
    }
}
