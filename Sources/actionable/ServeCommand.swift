import ActionableService
import ArgumentParser
import Configuration
import Foundation
import Logging
import SystemPackage

/// `actionable serve`: receives action responses and stores them durably. It only turns its
/// flags into a configuration provider, placed before the `ACTIONABLE_*` environment variables
/// and the JSON file of `--config`; `ActionableConfiguration(reader:)` reads and checks every
/// setting (each written once, in `ServeSetting`), and the `ActionableService` library builds
/// and runs everything.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Receive action responses from apps and store them durably.",
        discussion: """
            Without --token-key, a development key is created under .actionable/ and a warning says so; \
            on an address other than loopback that refuses to start (unless --insecure-development-key). \
            The listener comes up first: /healthz answers at once, /readyz answers 503 until storage is \
            reachable (with --storage-timeout, serve exits 1 when it is not within that time). SIGTERM stops \
            accepting, finishes in-flight requests and deliveries, and exits 0.

            Every setting can also come from an environment variable (ACTIONABLE_ and the flag's name \
            in capitals with _ for -, e.g. ACTIONABLE_STORAGE, ACTIONABLE_TOKEN_KEY=k1=…,k0=…) or from \
            the JSON file of --config (the flag's name as key: {"port": 9000, "token-key": ["k1=…"]}). \
            Flags win over the environment, which wins over the file. Secrets are never logged.

            SETTINGS:
            \(ServeSetting.commandLineList)
            """
    )

    @Option(help: "A JSON configuration file (keys are the flags' names).") var config: String?
    /// Every other flag: the settings, each declared once in `ServeSetting` (listed in the help's
    /// discussion, parsed and checked by `ServeSetting.commandLine(_:)`).
    @Argument(parsing: .allUnrecognized, help: .hidden) var settings: [String] = []

    /// Flags, then the environment, then the file of `--config`.
    func reader() async throws -> ConfigReader {
        let flags: InMemoryProvider
        do {
            flags = try ServeSetting.commandLine(settings)
        } catch {
            throw ValidationError(error.description)
        }
        var providers: [any ConfigProvider] = [flags, ActionableConfiguration.environmentProvider()]
        if let path = config {
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("--config \(path): no such file") }
            do {
                providers.append(try await FileProvider<JSONSnapshot>(filePath: .init(path)))
            } catch {
                throw ValidationError("--config \(path) is not a JSON object of settings: \(error)")
            }
        }
        return ConfigReader(providers: providers)
    }

    func run() async throws {
        var logger = Logger(label: "actionable")
        logger.logLevel = .info
        let configuration: ActionableConfiguration
        do {
            configuration = try ActionableConfiguration(reader: try await reader())
        } catch let error as ConfigurationError {
            if error.isUsage { throw ValidationError(error.description) }
            throw refuse(error.description)
        }
        let service: ActionableService
        do {
            // The service reads the category files itself, so that SIGHUP can read them again.
            service = try await ActionableService(configuration: configuration, logger: logger)
        } catch let error as ExitCode {
            throw error
        } catch {
            if let refused = catalogRefusal(error) { throw refused }
            throw refuse("\(error)")
        }
        do {
            try await service.runService()
        } catch {
            throw refuse("\(error)")
        }
    }
}
