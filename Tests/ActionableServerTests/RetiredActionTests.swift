import ActionableCore
import ActionableRouter
import ActionableService
import ActionableTestSupport
import Foundation
import Testing

/// A retired action is gone from new app versions, but taps from installed versions still land:
/// the server accepts them and the router routes them.
struct RetiredActionTests {
    @Test(.timeLimit(.minutes(1)))
    func aTapOnARetiredActionIsAcceptedAndRouted() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let invite = directory.appendingPathComponent("Categories/invite.yaml")
        var text = try String(contentsOf: invite, encoding: .utf8)
        text = text.replacing("  - id: maybe\n", with: "  - id: maybe\n    retired: true\n")
        text = text.replacing("default: [accept, decline, maybe, comment]", with: "default: [accept, decline, comment]")
        try text.write(to: invite, atomically: true, encoding: .utf8)

        let configuration = EmbeddedServiceTests.configuration(categories: directory.appendingPathComponent("Categories"))
        let (handled, handledContinuation) = AsyncStream<ActionResponse>.makeStream()

        let routed = try await EmbeddedServiceTests.withRunning({ onRunning in
            try await ActionableService(
                configuration: configuration, logger: EmbeddedServiceTests.quiet, onServerRunning: onRunning
            ) { routes in
                routes.on("invite", "maybe") { response, _ in
                    handledContinuation.yield(response)
                    return .done
                }
                routes.on(.category("invite")) { _, _ in .done }
            }
        }) { _, port in
            let catalog = try await EmbeddedServiceTests.get("http://127.0.0.1:\(port)/v1/categories")
            #expect(
                catalog.contains(
                    #"{"id":"maybe","title":{"en":"Maybe","de":"Vielleicht"},"activation":"background","destructive":false,"authenticationRequired":false,"retired":true}"#
                ), "\(catalog)")
            let (status, body) = try await EmbeddedServiceTests.post(
                try await EmbeddedServiceTests.tap(user: "alice", notification: "n-retired", action: "maybe"),
                to: "http://127.0.0.1:\(port)/v1/actions")
            #expect(status == 202, "\(body)")
            var iterator = handled.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(routed?.action == "maybe")
        #expect(routed?.user == "alice")
    }
}
