import ActionableHTTP
import ActionableStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing
import Yams

/// The published contract: the binary carries openapi.yaml as it is in the repository, and
/// serves it as JSON with the deployment's categories.
struct OpenAPIDocumentTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    @Test func theServedDocumentIsOpenapiYamlWithTheCatalogsCategories() async throws {
        let yaml = try String(contentsOf: Self.file, encoding: .utf8)
        let expected = try #require(try Yams.load(yaml: yaml) as? [String: Any])
        let replies = try await BadgeEndpointTests.run([
            BadgeEndpointTests.Call(method: .get, uri: "/openapi.json"), BadgeEndpointTests.Call(method: .head, uri: "/openapi.json"),
        ])
        #expect(replies.map(\.status) == [.ok, .ok])
        #expect(replies[0].headers[.contentType] == "application/json")
        let served = replies[0].json
        #expect(served["openapi"] as? String == "3.1.0")
        let paths = try #require(served["paths"] as? [String: Any])
        #expect(Set(paths.keys) == Set((expected["paths"] as? [String: Any] ?? [:]).keys))
        #expect(served.count == expected.count)
        let category =
            ((((served["components"] as? [String: Any])?["schemas"] as? [String: Any])?["NotificationRecord"] as? [String: Any])?[
                "properties"] as? [String: Any])?["category"] as? [String: Any]
        #expect(category?["enum"] as? [String] == ["invite", "message"])
    }

    @Test func everyDocumentedPathIsARouteOfTheServer() async throws {
        let yaml = try String(contentsOf: Self.file, encoding: .utf8)
        // /metrics is routed only when metrics are on (as `serve` always has them).
        let paths = Set(((try Yams.load(yaml: yaml) as? [String: Any])?["paths"] as? [String: Any] ?? [:]).keys).subtracting(["/metrics"])
        // A path the document does not name is a 404 problem; each documented one answers something else.
        let settings = ServerSettings(adminToken: "operator-token-0123456789abcdefghijkl", backendToken: BadgeEndpointTests.backend)
        let calls = paths.sorted().map { path in
            BadgeEndpointTests.Call(
                method: .options, uri: path.replacingOccurrences(of: "{id}", with: "x").replacingOccurrences(of: "{user}", with: "u"))
        }
        let replies = try await BadgeEndpointTests.run(settings: settings, calls)
        for (path, reply) in zip(paths.sorted(), replies) {
            #expect(reply.status == .methodNotAllowed, "\(path) is documented but the server does not know it")
        }
    }

    /// The other direction: each method and path the router answers (with every optional part on:
    /// admin token, metrics, sending) is an operation of the document, whatever its parameters are named.
    @Test func everyRouteOfTheServerIsADocumentedOperation() async throws {
        let yaml = try String(contentsOf: Self.file, encoding: .utf8)
        let paths = ((try Yams.load(yaml: yaml) as? [String: Any])?["paths"] as? [String: Any]) ?? [:]
        func shape(_ path: String) -> String { path.replacing(/\{[^}]*\}/, with: "{}") }
        var documented: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any] ?? [:]).keys where method != "parameters" {
                documented.insert("\(method.uppercased()) \(shape(path))")
            }
        }
        let router = ActionableRoutes.router(
            catalog: ActionsEndpointTests.catalog, store: InMemoryActionStore(), tokens: nil,
            settings: ServerSettings(adminToken: "operator-token-0123456789abcdefghijkl", backendToken: BadgeEndpointTests.backend),
            metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())),
            exposition: { "" }, sendSignal: OutboxSignal())
        let routed = router.routes.filter { $0.method != .head }.map { "\($0.method) \(shape($0.path.description))" }
        #expect(routed.count > 20)
        for route in routed.sorted() {
            #expect(documented.contains(route), "\(route) is served but openapi.yaml does not document it")
        }
    }
}
