import ActionableCore
import ActionablePostgres
import ActionableServer
import ActionableStore
import ActionableTokens
import ArgumentParser
import Foundation
import Hummingbird
import Logging

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
            """
    )

    @Option(help: "A configuration file (not supported yet).") var config: String?
    @Option(help: "The directory of category files.") var categories = "Categories"
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8080
    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database.")
    var storage = "sqlite:.actionable/actionable.sqlite"
    @Option(name: .customLong("token-key"), help: "ID=SECRET verifying action tokens (repeatable; the first signs).")
    var tokenKeys: [String] = []
    @Option(name: .customLong("forward"), help: "PATTERN=URL: forward responses to an upstream (not supported yet).")
    var forwards: [String] = []
    @Option(name: .customLong("forward-secret"), help: "whsec_… signing forwarded responses (not supported yet).")
    var forwardSecret: String?
    @Option(name: .customLong("max-body-size"), help: "The largest POST /v1/actions body, in bytes.")
    var maxBodySize = 16 * 1024

    func validate() throws {
        if config != nil { throw ValidationError("--config is not supported yet; pass the settings as flags") }
        if !forwards.isEmpty || forwardSecret != nil {
            throw ValidationError("--forward and --forward-secret are not supported yet: delivery is not built yet")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
    }

    func run() async throws {
        var logger = Logger(label: "actionable")
        logger.logLevel = .info
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
        let router = ActionableServer.router(catalog: catalog, store: store, tokens: tokens,
            settings: ServerSettings(maximumBodySize: maxBodySize))
        let app = Application(router: router, configuration: .init(address: .hostname(host, port: port)), logger: logger)
        logger.info("serving \(catalog.categories.count) categories from \(categories), storage \(Self.redacted(storage))")
        try await app.runService()
    }

    private func openStore(logger: Logger) async throws -> any ActionStore {
        if storage.hasPrefix("sqlite:") {
            return try await SQLiteActionStore(path: String(storage.dropFirst("sqlite:".count)))
        }
        if storage.hasPrefix("postgres://") || storage.hasPrefix("postgresql://") {
            return try await PostgresActionStore(url: storage, logger: logger)
        }
        throw refuse("--storage takes sqlite:PATH or postgres://user:password@host:port/database, not \(Self.redacted(storage))")
    }

    /// The storage URL without its password, for logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "postgres://***"
    }
}
