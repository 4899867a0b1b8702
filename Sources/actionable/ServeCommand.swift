import ActionableServer
import ActionableService
import ActionableTokens
import ArgumentParser
import Configuration
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
    @Option(name: .customLong("storage-timeout"), help: "Seconds to wait for storage at start-up before exiting 1 (default: wait, with /readyz 503).")
    var storageTimeout: Int?
    @Option(name: .customLong("tls-certificate"), help: "A PEM certificate chain: serve HTTPS (with --tls-key).")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?

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
    var storageTimeout: Int?
    var tlsCertificate: String?
    var tlsKey: String?

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
            return environment.stringArray(
                forKey: ConfigKey("actionable.\(name)".replacingOccurrences(of: "-", with: ".")),
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
        storageTimeout = int(command.storageTimeout, "storage-timeout")
        tlsCertificate = string(command.tlsCertificate, "tls-certificate")
        tlsKey = string(command.tlsKey, "tls-key", secret: true)
        guard deliveryLease >= 1 else { throw ValidationError("--delivery-lease must be at least 1 second") }
        if let storageTimeout, storageTimeout < 1 {
            throw ValidationError("--storage-timeout must be at least 1 second")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-certificate and --tls-key go together: give both, or neither")
        }
        if !forwards.isEmpty && forwardSecret == nil {
            throw ValidationError("--forward needs --forward-secret whsec_… to sign what it sends")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    /// The service's configuration: what was merged, typed; a malformed value is refused with
    /// the flag's name.
    func configuration() throws -> ActionableConfiguration {
        var configuration = ActionableConfiguration()
        configuration.categories = categories
        configuration.host = host
        configuration.port = port
        configuration.storage = storage
        configuration.storageTimeout = storageTimeout.map { .seconds($0) }
        configuration.tokenKeys = try keys(tokenKeys, flag: "--token-key")
        configuration.appJWTKeys = try keys(appJWTKeys, flag: "--app-jwt-key")
        do {
            configuration.forwards = try forwards.map { try ForwardRoute(parsing: $0) }
        } catch {
            throw refuse("--forward: \(error)")
        }
        configuration.forwardSecret = forwardSecret
        configuration.deliveryLease = .seconds(deliveryLease)
        configuration.server = ServerSettings(
            maximumBodySize: maxBodySize, adminToken: adminToken, maximumConcurrentAccepts: maxInFlight)
        if let tlsCertificate, let tlsKey {
            configuration.tls = .init(certificate: tlsCertificate, key: tlsKey)
        }
        return configuration
    }

    private func keys(_ texts: [String], flag: String) throws -> [ActionTokenKey] {
        do {
            return try texts.map { try ActionTokenKey(parsing: $0) }
        } catch {
            throw refuse("\(flag): \(error)")
        }
    }
}
