import ActionableCore
import ActionableDelivery
import ActionablePostgres
import ActionableRouter
import ActionableServer
import ActionableStore
import ActionableTokens
import ArgumentParser
import Configuration
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

/// `actionable serve` (SPEC §6): receives action responses and stores them durably.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive action responses from apps and store them durably.",
        discussion: """
            Defaults: --categories Categories, --host 127.0.0.1, --port 8080, \
            --storage sqlite:.actionable/actionable.sqlite. Without --token-key, a development key is \
            created under .actionable/ and a warning says so. SIGTERM stops accepting, finishes \
            in-flight requests and exits 0.

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
    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database (default: sqlite:.actionable/actionable.sqlite).")
    var storage: String?
    @Option(name: .customLong("token-key"), help: "ID=SECRET verifying action tokens (repeatable; the first signs).")
    var tokenKeys: [String] = []
    @Option(name: .customLong("forward"), help: "PATTERN=URL: forward category.action, category.* or * to an upstream (repeatable).")
    var forwards: [String] = []
    @Option(name: .customLong("forward-secret"), help: "whsec_… signing forwarded responses (Standard Webhooks).")
    var forwardSecret: String?
    @Option(name: .customLong("max-body-size"), help: "The largest POST /v1/actions body, in bytes (default: 16384).")
    var maxBodySize: Int?
    @Option(name: .customLong("admin-token"), help: "Enables GET /v1/actions/{id} for operators, with this bearer token.")
    var adminToken: String?
    @Option(name: .customLong("max-in-flight"), help: "The most responses being accepted at once; past it, 429 (default: 1024).")
    var maxInFlight: Int?
    @Option(name: .customLong("delivery-lease"), help: "Seconds a delivery claim is held before another instance may take it over (default: 60).")
    var deliveryLease: Int?
    @Option(name: .customLong("app-jwt-key"), help: "ID=SECRET: also require the app's own bearer JWT (HS256) and match its sub (repeatable).")
    var appJWTKeys: [String] = []

    func run() async throws {
        var logger = Logger(label: "actionable")
        logger.logLevel = .info
        let settings = try await ResolvedServeSettings(self)
        try await settings.serve(logger: logger)
    }
}

/// The serve settings once flags, environment variables and the configuration file are merged.
struct ResolvedServeSettings {
    var categories: String
    var host: String
    var port: Int
    var storage: String
    var tokenKeys: [String]
    var forwards: [String]
    var forwardSecret: String?
    var maxBodySize: Int
    var adminToken: String?
    var maxInFlight: Int
    var appJWTKeys: [String]
    var deliveryLease: Int

    init(_ command: ServeCommand) async throws {
        let environment = ConfigReader(provider: EnvironmentVariablesProvider())
        var file: ConfigReader?
        if let path = command.config {
            guard FileManager.default.fileExists(atPath: path) else {
                throw ValidationError("--config \(path): no such file")
            }
            do {
                file = ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: .init(path)))
            } catch {
                throw ValidationError("--config \(path) is not a JSON object of settings: \(error)")
            }
        }
        func string(_ flag: String?, _ name: String, secret: Bool = false) -> String? {
            flag ?? environment.string(forKey: ConfigKey("actionable.\(name)".replacingOccurrences(of: "-", with: ".")), isSecret: secret)
                ?? file?.string(forKey: ConfigKey([name]), isSecret: secret)
        }
        func int(_ flag: Int?, _ name: String) -> Int? {
            flag ?? environment.int(forKey: ConfigKey("actionable.\(name)".replacingOccurrences(of: "-", with: ".")))
                ?? file?.int(forKey: ConfigKey([name]))
        }
        func strings(_ flag: [String], _ name: String, secret: Bool = false) -> [String] {
            if !flag.isEmpty { return flag }
            return environment.stringArray(forKey: ConfigKey("actionable.\(name)".replacingOccurrences(of: "-", with: ".")),
                isSecret: secret) ?? file?.stringArray(forKey: ConfigKey([name]), isSecret: secret) ?? []
        }
        categories = string(command.categories, "categories") ?? "Categories"
        host = string(command.host, "host") ?? "127.0.0.1"
        port = int(command.port, "port") ?? 8080
        storage = string(command.storage, "storage", secret: true) ?? "sqlite:.actionable/actionable.sqlite"
        tokenKeys = strings(command.tokenKeys, "token-key", secret: true)
        forwards = strings(command.forwards, "forward")
        forwardSecret = string(command.forwardSecret, "forward-secret", secret: true)
        maxBodySize = int(command.maxBodySize, "max-body-size") ?? 16 * 1024
        adminToken = string(command.adminToken, "admin-token", secret: true)
        maxInFlight = int(command.maxInFlight, "max-in-flight") ?? 1024
        appJWTKeys = strings(command.appJWTKeys, "app-jwt-key", secret: true)
        deliveryLease = int(command.deliveryLease, "delivery-lease") ?? 60
        guard deliveryLease >= 1 else { throw ValidationError("--delivery-lease must be at least 1 second") }
        if !forwards.isEmpty && forwardSecret == nil {
            throw ValidationError("--forward needs --forward-secret whsec_… to sign what it sends")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    func serve(logger: Logger) async throws {
        let catalog = try loadCheckedCatalog(categories)
        let keys: [ActionTokenKey]
        if tokenKeys.isEmpty {
            let (key, created) = try DevelopmentKey.loadOrCreate()
            logger.warning("""
                no --token-key given: action tokens are verified with the development key in \
                \(DevelopmentKey.path)\(created ? " (created now)" : ""); never use it in production
                """)
            keys = [key]
        } else {
            do {
                keys = try tokenKeys.map { try ActionTokenKey(parsing: $0) }
            } catch {
                throw refuse("\(error)")
            }
        }
        let tokens = try await ActionTokens(keys: keys)
        let store = try await openStore(logger: logger)
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        let router = ActionableServer.router(catalog: catalog, store: store, tokens: tokens,
            settings: ServerSettings(maximumBodySize: maxBodySize, adminToken: adminToken, maximumConcurrentAccepts: maxInFlight),
            metrics: ServerMetrics(factory: factory), exposition: { registry.emitToString() },
            appTokens: try await appTokens())
        var app = Application(router: router, configuration: .init(address: .hostname(host, port: port)), logger: logger)
        if var worker = try deliveryWorker(catalog: catalog, store: store, logger: logger) {
            worker.metricsFactory = factory
            app.addServices(DeliveryService(worker: worker))
        } else {
            logger.warning("no --forward given: accepted responses are stored but not delivered")
        }
        logger.info("serving \(catalog.categories.count) categories from \(categories), storage \(PostgresActionStore.redacted(storage))")
        try await app.runService()
    }

    /// The app-token verifier of `--app-jwt-key`, or `nil` when none is given.
    private func appTokens() async throws -> AppTokens? {
        guard !appJWTKeys.isEmpty else { return nil }
        do {
            return await AppTokens(keys: try appJWTKeys.map { try ActionTokenKey(parsing: $0) })
        } catch {
            throw refuse("--app-jwt-key: \(error)")
        }
    }

    /// The worker forwarding to the `--forward` upstreams, or `nil` when there are none.
    private func deliveryWorker(catalog: Catalog, store: any ActionStore, logger: Logger) throws -> DeliveryWorker? {
        guard !forwards.isEmpty, let forwardSecret else { return nil }
        let signer: WebhookSigner
        do {
            signer = try WebhookSigner(secret: forwardSecret)
        } catch {
            throw refuse(error.description)
        }
        var builder = RouterBuilder(catalog: catalog)
        for forward in forwards {
            guard let equals = forward.firstIndex(of: "="), forward[forward.index(after: equals)...].hasPrefix("http") else {
                throw refuse("--forward takes PATTERN=URL, e.g. invite.*=https://invitations.internal/rsvp; got \(forward)")
            }
            let pattern: RoutePattern
            do {
                pattern = try RoutePattern(parsing: String(forward[..<equals]), in: catalog)
            } catch {
                throw refuse(error.description)
            }
            let url = String(forward[forward.index(after: equals)...])
            builder.on(pattern, Forwarder(url: url, signer: signer).handler)
            logger.info("forwarding \(pattern) to \(url)")
        }
        do {
            return DeliveryWorker(store: store, router: try builder.build(), lease: TimeInterval(deliveryLease), logger: logger)
        } catch {
            throw refuse(error.description)
        }
    }

    private func openStore(logger: Logger) async throws -> any ActionStore {
        if storage.hasPrefix("sqlite:") {
            return try await SQLiteActionStore(path: String(storage.dropFirst("sqlite:".count)))
        }
        if storage.hasPrefix("postgres://") || storage.hasPrefix("postgresql://") {
            return try await PostgresActionStore(url: storage, logger: logger)
        }
        throw refuse("--storage takes sqlite:PATH or postgres://user:password@host:port/database, not \(PostgresActionStore.redacted(storage))")
    }
}

/// Runs the delivery worker beside the HTTP server. On graceful shutdown it claims nothing more,
/// and the deliveries in flight finish (each within the forwarder's timeout) and are recorded.
struct DeliveryService: Service {
    let worker: DeliveryWorker

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await worker.run()
        }
    }
}
