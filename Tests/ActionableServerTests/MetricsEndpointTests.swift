import ActionableCore
import ActionableServer
import ActionableStore
import ActionableTesting
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing

struct MetricsEndpointTests {
    @Test func requestsAndResponsesAreCountedInPrometheusText() async throws {
        let registry = PrometheusCollectorRegistry()
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let app = Application(
            router: ActionableServer.router(
                catalog: ActionsEndpointTests.catalog,
                store: InMemoryActionStore(), tokens: tokens,
                metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)),
                exposition: { registry.emitToString() }))
        let token = try await ActionsEndpointTests.token()
        let text = try await app.test(.router) { client in
            for body in [ActionsEndpointTests.body(token), ActionsEndpointTests.body(nil)] {
                try await client.execute(
                    uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json,
                    body: ByteBuffer(string: body)
                ) { _ in }
            }
            return try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                return String(buffer: response.body)
            }
        }
        #expect(text.contains(#"actionable_action_responses_total{result="accepted"} 1"#), "\(text)")
        #expect(text.contains(#"actionable_action_responses_total{result="rejected"} 1"#))
        #expect(text.contains(#"path="/v1/actions""#))
        #expect(text.contains(#"status="202""#))
        #expect(text.contains(#"status="401""#))
        #expect(text.contains("actionable_http_request_duration_seconds"))
    }
}

extension MetricsEndpointTests {
    @Test func theLedgerCountsRecordsReadsAndTheUnreadTotal() async throws {
        let registry = PrometheusCollectorRegistry()
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let backend = BadgeEndpointTests.backend
        let app = Application(
            router: ActionableServer.router(
                catalog: ActionsEndpointTests.catalog, store: InMemoryActionStore(), tokens: tokens,
                settings: ServerSettings(backendToken: backend),
                metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)),
                exposition: { registry.emitToString() }))
        let tap = ActionsEndpointTests.body(try await ActionsEndpointTests.token(notification: "n-1"))
        let text = try await app.test(.router) { client in
            var headers = ActionsEndpointTests.json
            headers[.authorization] = "Bearer \(backend)"
            for id in ["n-1", "n-2", "n-3", "n-3"] {
                try await client.execute(
                    uri: "/v1/notifications", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"user":"alice","notificationId":"\#(id)","category":"invite"}"#)
                ) { _ in }
            }
            try await client.execute(uri: "/v1/actions", method: .post, headers: ActionsEndpointTests.json, body: ByteBuffer(string: tap)) {
                #expect($0.status == .accepted)
            }
            try await client.execute(
                uri: "/v1/badge/read", method: .post, headers: headers, body: ByteBuffer(string: #"{"user":"alice","notificationIds":["n-2"]}"#)
            ) { _ in }
            return try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
        }
        #expect(text.contains(#"actionable_badge_records_total{result="recorded"} 3"#), "\(text)")
        #expect(text.contains(#"actionable_badge_records_total{result="duplicate"} 1"#))
        #expect(text.contains(#"actionable_badge_reads_total{source="action"} 1"#))
        #expect(text.contains(#"actionable_badge_reads_total{source="backend"} 1"#))
        #expect(text.contains("actionable_badge_unread 1"))
    }
}
