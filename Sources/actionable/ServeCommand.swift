import ActionableService
import ArgumentParser
import Foundation
import Logging

/// `actionable serve`: receives action responses and stores them durably. It only turns flags,
/// `ACTIONABLE_*` environment variables and a JSON file into an `ActionableConfiguration`; the
/// `ActionableService` library builds and runs everything.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive action responses from apps and store them durably.",
        discussion: """
            Defaults: --categories Categories, --host 127.0.0.1, --port 8080, \
            --storage sqlite:.actionable/actionable.sqlite. Without --token-key, a development key is \
            created under .actionable/ and a warning says so; on an address other than loopback that \
            refuses to start (unless --insecure-development-key). --admin-token and --backend-token \
            need at least 32 bytes. The listener comes up first: /healthz \
            answers at once, /readyz answers 503 until storage is reachable (with --storage-timeout, \
            serve exits 1 when it is not within that time). SIGTERM stops accepting, finishes \
            in-flight requests and deliveries, and exits 0.

            Every setting can also come from an environment variable (ACTIONABLE_ and the flag's name \
            in capitals with _ for -, e.g. ACTIONABLE_STORAGE, ACTIONABLE_TOKEN_KEY=k1=…,k0=…) or from \
            the JSON file of --config (the flag's name as key: {"port": 9000, "token-key": ["k1=…"]}). \
            Flags win over the environment, which wins over the file. Secrets are never logged.
            """
    )

    @Option(help: "A JSON configuration file (keys are the flags' names).") var config: String?
    @Option(help: "The directory of category files (default: Categories).") var categories: String?
    @Option(help: "The address to listen on (default: 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on (default: 8080).") var port: Int?
    @Option(help: "sqlite:PATH, postgres://user:password@host:port/database or memory: (default: sqlite:.actionable/actionable.sqlite).")
    var storage: String?
    @Option(name: .customLong("token-key"), help: "ID=SECRET verifying action tokens (repeatable; the first signs).")
    var tokenKeys: [String] = []
    @Option(name: .customLong("forward"), help: "PATTERN=URL: forward category.action, category.* or * to an upstream (repeatable).")
    var forwards: [String] = []
    @Option(name: .customLong("forward-secret"), help: "whsec_… signing forwarded responses (Standard Webhooks).")
    var forwardSecret: String?
    @Option(name: .customLong("max-body-size"), help: "The largest POST /v1/actions body, in bytes (default: 16384).")
    var maxBodySize: Int?
    @Option(name: .customLong("admin-token"), help: "Enables the operators' API (GET /v1/deliveries, …) and the /admin page, with this token.")
    var adminToken: String?
    @Option(name: .customLong("max-in-flight"), help: "The most responses being accepted at once; past it, 429 (default: 1024).")
    var maxInFlight: Int?
    @Option(name: .customLong("delivery-lease"), help: "Seconds a delivery claim is held before another instance may take it over (default: 60).")
    var deliveryLease: Int?
    @Option(name: .customLong("app-jwt-key"), help: "ID=SECRET: also require the app's own bearer JWT (HS256) and match its sub (repeatable).")
    var appJWTKeys: [String] = []
    @Option(name: .customLong("storage-timeout"), help: "Seconds to wait for storage at start-up before exiting 1 (default: wait, with /readyz 503).")
    var storageTimeout: Int?
    @Option(name: .customLong("tls-certificate"), help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?
    @Option(name: .customLong("retry-for"), help: "How long a failing delivery is retried before it is dead: 90s, 30m, 24h, 3d (default: 24h).")
    var retryFor: String?
    @Option(name: .customLong("retry-first-delay"), help: "The backoff before the first retry (default: 1s).")
    var retryFirstDelay: String?
    @Option(name: .customLong("retry-max-delay"), help: "The longest backoff between retries (default: 1h).")
    var retryMaxDelay: String?
    @Flag(
        name: .customLong("admin-secure-cookie"),
        help: "Mark the admin page's cookie Secure (behind a proxy that terminates TLS; on by itself with --tls-certificate).")
    var adminSecureCookie = false
    @Option(name: .customLong("backend-token"), help: "The backend's bearer token for the badge endpoints (POST /v1/notifications, …).")
    var backendToken: String?
    @Option(
        name: .customLong("badge-lifetime"), help: "How long an unread notification counts on its user's badge: 90s, 30m, 12h, 7d (default: 30d).")
    var badgeLifetime: String?
    @Option(
        name: .customLong("retention"),
        help:
            "How long delivered and dead responses and read or expired badge entries are kept: 12h, 30d, or 0 to keep everything (default: 30d). Pending responses are never deleted."
    )
    var retention: String?

    @Option(name: .customLong("app-jwt-audience"), help: "The aud every app JWT must name (default: actionable).")
    var appJWTAudience: String?
    @Flag(
        name: .customLong("insecure-development-key"),
        help: "Allow the development token key on a non-loopback address (throwaway test servers only).")
    var insecureDevelopmentKey = false
    @Flag(
        name: .customLong("accept-unbound-payloads"),
        help: "Accept action tokens without a pld claim (minted by older versions), for a migration window; logged once per token.")
    var acceptUnboundPayloads = false
    @Option(name: .customLong("read-timeout"), help: "How long a request's header and body may take to arrive: 10s, 1m (default: 10s).")
    var readTimeout: String?
    @Option(name: .customLong("idle-timeout"), help: "How long an idle keep-alive connection stays open (default: 60s).")
    var idleTimeout: String?
    @Option(name: .customLong("max-connections"), help: "The most connections open at once (default: 4096).")
    var maxConnections: Int?
    @Option(
        name: .customLong("metrics-address"),
        help: "HOST:PORT: serve GET /metrics on a listener of its own, without credentials (e.g. 127.0.0.1:9090).")
    var metricsAddress: String?

    func run() async throws {
        var logger = Logger(label: "actionable")
        logger.logLevel = .info
        let settings = try await ResolvedServeSettings(self)
        let catalog = try loadCheckedCatalog(settings.categories)
        let service: ActionableService
        do {
            service = try await ActionableService(configuration: settings.configuration(), catalog: catalog, logger: logger)
        } catch let error as ExitCode {
            throw error
        } catch {
            throw refuse("\(error)")
        }
        do {
            try await service.runService()
        } catch {
            throw refuse("\(error)")
        }
    }
}
