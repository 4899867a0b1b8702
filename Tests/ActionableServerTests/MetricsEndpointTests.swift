import ActionableCore
import ActionableStore
import ActionableTestSupport
import ActionableTesting
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing

@testable import ActionableHTTP

struct MetricsEndpointTests {
    static let admin = "metrics-admin-token-0123456789abcdef"
    static let bearer: HTTPFields = [.authorization: "Bearer \(admin)"]

    @Test func requestsAndResponsesAreCountedInPrometheusText() async throws {
        let registry = PrometheusCollectorRegistry()
        let tokens = try await ActionTokens(keys: [ActionsEndpointTests.key])
        let app = Application(
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog,
                store: InMemoryActionStore(), tokens: tokens, settings: ServerSettings(adminToken: Self.admin),
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
            return try await client.execute(uri: "/metrics", method: .get, headers: Self.bearer) { response in
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
            router: ActionableRoutes.router(
                catalog: ActionsEndpointTests.catalog, store: InMemoryActionStore(), tokens: tokens,
                settings: ServerSettings(adminToken: Self.admin, backendToken: backend),
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
            return try await client.execute(uri: "/metrics", method: .get, headers: Self.bearer) { String(buffer: $0.body) }
        }
        #expect(text.contains(#"actionable_badge_records_total{result="recorded"} 3"#), "\(text)")
        #expect(text.contains(#"actionable_badge_records_total{result="duplicate"} 1"#))
        #expect(text.contains(#"actionable_badge_reads_total{source="action"} 1"#))
        #expect(text.contains(#"actionable_badge_reads_total{source="backend"} 1"#))
        #expect(text.contains("actionable_badge_unread 1"))
    }
}

extension MetricsEndpointTests {
    /// On the main listener the metrics are the operators': no token, a wrong one, or a server
    /// without an admin token all get 401 and not one metric.
    @Test func theMainListenerServesMetricsOnlyWithTheAdminToken() async throws {
        for settings in [ServerSettings(adminToken: Self.admin), ServerSettings()] {
            let registry = PrometheusCollectorRegistry()
            let app = Application(
                router: ActionableRoutes.router(
                    catalog: ActionsEndpointTests.catalog, store: InMemoryActionStore(), tokens: nil, settings: settings,
                    metrics: ServerMetrics(factory: PrometheusMetricsFactory(registry: registry)),
                    exposition: { registry.emitToString() }))
            try await app.test(.router) { client in
                for headers: HTTPFields in [[:], [.authorization: "Bearer wrong"], [.authorization: "Bearer "], Self.bearer] {
                    let granted = settings.adminToken != nil && headers == Self.bearer
                    try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                        #expect(response.status == (granted ? .ok : .unauthorized), "\(headers)")
                        #expect(String(buffer: response.body).contains("actionable_http_requests_total") == granted)
                    }
                }
            }
        }
    }

    /// The metrics listener's router serves /metrics to anyone (it is bound to a private
    /// address), and nothing else.
    @Test func theMetricsRouterServesOnlyMetricsWithoutCredentials() async throws {
        let registry = PrometheusCollectorRegistry()
        let metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry))
        metrics.response("accepted")
        let app = Application(
            router: ActionableRoutes.metricsRouter(
                storage: StorageGate(open: InMemoryActionStore()), settings: ServerSettings(), metrics: metrics,
                exposition: { registry.emitToString() }))
        try await app.test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#"actionable_action_responses_total{result="accepted"} 1"#))
            }
            try await client.execute(uri: "/v1/actions", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    /// Scrapes run no query each: the unread total is read once, then served from memory until
    /// it is older than the cache's age, when one background read refreshes it.
    @Test func theUnreadTotalIsReadOncePerIntervalNotPerScrape() async throws {
        let reads = ReadCounter()
        let cache = UnreadTotalCache(maximumAge: .seconds(3600)) { await reads.next() }
        #expect(await cache.value() == 1)  // the first scrape waits for the first read
        for _ in 0..<50 { #expect(await cache.value() == 1) }
        #expect(await reads.count == 1)
        let stale = UnreadTotalCache(maximumAge: .zero) { await reads.next() }
        #expect(await stale.value() == 2)
        // Stale at once: the next scrape answers the last value at once and starts a read behind it.
        #expect(await stale.value() == 2)
        try await reads.waitFor(3)
    }
}

/// Counts reads and lets a test wait for the n-th.
actor ReadCounter {
    private(set) var count = 0
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    func next() -> Int {
        count += 1
        for (target, waiter) in waiters where target <= count { waiter.resume() }
        waiters.removeAll { $0.0 <= count }
        return count
    }

    func waitFor(_ target: Int) async throws {
        try await within("\(target) arrivals") { await self.parkUntil(target) }
    }

    private func parkUntil(_ target: Int) async {
        guard count < target else { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }
}

extension MetricsEndpointTests {
    /// `serve --metrics-address`: the metrics on their own listener without credentials, the
    /// main listener's /metrics still behind the admin token, and SIGTERM stops both.
    @Test(.timeLimit(.minutes(1)))
    func serveServesMetricsOnTheirOwnListener() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (port, metricsPort) = (try ServerProcess.freePort(), try ServerProcess.freePort())
        let server = try await ServerProcess.serve(
            in: directory, port: port, extra: ["--storage", "memory:", "--metrics-address", "127.0.0.1:\(metricsPort)"])
        _ = try await server.output(containing: "metrics on http://127.0.0.1:\(metricsPort)/metrics")
        let open = try RawConnection(port: metricsPort)
        open.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let metrics = try #require(await open.readResponse())
        #expect(metrics.status == 200)
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("actionable_"))
        let main = try RawConnection(port: port)
        main.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await main.readResponse()?.status == 401)
        let other = try RawConnection(port: metricsPort)
        other.send("GET /v1/categories HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await other.readResponse()?.status == 404)
        #expect(await server.stop() == 0)
    }
}
