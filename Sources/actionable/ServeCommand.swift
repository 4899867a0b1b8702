import ActionableService
import ArgumentParser
import Configuration
import Foundation
import Logging

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
            """
    )

    @Option(help: "A JSON configuration file (keys are the flags' names).") var config: String?
    @Option(name: .customLong(ServeSetting.categories.key), help: help(.categories)) var categories: String?
    @Option(name: .customLong(ServeSetting.host.key), help: help(.host)) var host: String?
    @Option(name: .customLong(ServeSetting.port.key), help: help(.port)) var port: Int?
    @Option(name: .customLong(ServeSetting.storage.key), help: help(.storage)) var storage: String?
    @Option(name: .customLong(ServeSetting.storageTimeout.key), help: help(.storageTimeout)) var storageTimeout: Int?
    @Option(name: .customLong(ServeSetting.tokenKey.key), help: help(.tokenKey)) var tokenKeys: [String] = []
    @Flag(name: .customLong(ServeSetting.insecureDevelopmentKey.key), help: help(.insecureDevelopmentKey))
    var insecureDevelopmentKey = false
    @Flag(name: .customLong(ServeSetting.acceptUnboundPayloads.key), help: help(.acceptUnboundPayloads))
    var acceptUnboundPayloads = false
    @Option(name: .customLong(ServeSetting.appJWTKey.key), help: help(.appJWTKey)) var appJWTKeys: [String] = []
    @Option(name: .customLong(ServeSetting.appJWTAudience.key), help: help(.appJWTAudience)) var appJWTAudience: String?
    @Option(name: .customLong(ServeSetting.forward.key), help: help(.forward)) var forwards: [String] = []
    @Option(name: .customLong(ServeSetting.forwardSecret.key), help: help(.forwardSecret)) var forwardSecret: String?
    @Option(name: .customLong(ServeSetting.breakerFailures.key), help: help(.breakerFailures)) var breakerFailures: Int?
    @Option(name: .customLong(ServeSetting.breakerProbe.key), help: help(.breakerProbe)) var breakerProbe: String?
    @Option(name: .customLong(ServeSetting.opsEndpoint.key), help: help(.opsEndpoint)) var opsEndpoint: String?
    @Option(name: .customLong(ServeSetting.maxBodySize.key), help: help(.maxBodySize)) var maxBodySize: Int?
    @Option(name: .customLong(ServeSetting.maxInFlight.key), help: help(.maxInFlight)) var maxInFlight: Int?
    @Option(name: .customLong(ServeSetting.readTimeout.key), help: help(.readTimeout)) var readTimeout: String?
    @Option(name: .customLong(ServeSetting.idleTimeout.key), help: help(.idleTimeout)) var idleTimeout: String?
    @Option(name: .customLong(ServeSetting.maxConnections.key), help: help(.maxConnections)) var maxConnections: Int?
    @Option(name: .customLong(ServeSetting.maxConnectionsPerAddress.key), help: help(.maxConnectionsPerAddress))
    var maxConnectionsPerAddress: Int?
    @Option(name: .customLong(ServeSetting.forwardTimeout.key), help: help(.forwardTimeout)) var forwardTimeout: String?
    @Option(name: .customLong(ServeSetting.shutdownGrace.key), help: help(.shutdownGrace)) var shutdownGrace: String?
    @Option(name: .customLong(ServeSetting.endpointConcurrency.key), help: help(.endpointConcurrency)) var endpointConcurrency: Int?
    @Option(name: .customLong(ServeSetting.maxDevicesPerUser.key), help: help(.maxDevicesPerUser)) var maxDevicesPerUser: Int?
    @Option(name: .customLong(ServeSetting.deviceRegistrationsPerHour.key), help: help(.deviceRegistrationsPerHour))
    var deviceRegistrationsPerHour: Int?
    @Option(name: .customLong(ServeSetting.metricsAddress.key), help: help(.metricsAddress)) var metricsAddress: String?
    @Option(name: .customLong(ServeSetting.otelEndpoint.key), help: help(.otelEndpoint)) var otelEndpoint: String?
    @Option(name: .customLong(ServeSetting.deliveryLease.key), help: help(.deliveryLease)) var deliveryLease: Int?
    @Option(name: .customLong(ServeSetting.adminToken.key), help: help(.adminToken)) var adminToken: String?
    @Flag(name: .customLong(ServeSetting.adminSecureCookie.key), help: help(.adminSecureCookie)) var adminSecureCookie = false
    @Option(name: .customLong(ServeSetting.retryFor.key), help: help(.retryFor)) var retryFor: String?
    @Option(name: .customLong(ServeSetting.retryFirstDelay.key), help: help(.retryFirstDelay)) var retryFirstDelay: String?
    @Option(name: .customLong(ServeSetting.retryMaxDelay.key), help: help(.retryMaxDelay)) var retryMaxDelay: String?
    @Option(name: .customLong(ServeSetting.tlsCertificate.key), help: help(.tlsCertificate)) var tlsCertificate: String?
    @Option(name: .customLong(ServeSetting.tlsKey.key), help: help(.tlsKey)) var tlsKey: String?
    @Option(name: .customLong(ServeSetting.backendToken.key), help: help(.backendToken)) var backendToken: String?
    @Option(name: .customLong(ServeSetting.badgeLifetime.key), help: help(.badgeLifetime)) var badgeLifetime: String?
    @Option(name: .customLong(ServeSetting.retention.key), help: help(.retention)) var retention: String?
    @Option(name: .customLong(ServeSetting.apnsKeyFile.key), help: help(.apnsKeyFile)) var apnsKeyFile: String?
    @Option(name: .customLong(ServeSetting.apnsKeyID.key), help: help(.apnsKeyID)) var apnsKeyID: String?
    @Option(name: .customLong(ServeSetting.apnsTeamID.key), help: help(.apnsTeamID)) var apnsTeamID: String?
    @Option(name: .customLong(ServeSetting.apnsTopic.key), help: help(.apnsTopic)) var apnsTopic: String?
    @Option(name: .customLong(ServeSetting.apnsURL.key), help: help(.apnsURL)) var apnsURL: String?
    @Option(name: .customLong(ServeSetting.apnsCAFile.key), help: help(.apnsCAFile)) var apnsCAFile: String?
    @Option(name: .customLong(ServeSetting.apnsConnections.key), help: help(.apnsConnections)) var apnsConnections: Int?
    @Option(name: .customLong(ServeSetting.fcmServiceAccount.key), help: help(.fcmServiceAccount)) var fcmServiceAccount: String?
    @Option(name: .customLong(ServeSetting.fcmURL.key), help: help(.fcmURL)) var fcmURL: String?
    @Option(name: .customLong(ServeSetting.fcmCAFile.key), help: help(.fcmCAFile)) var fcmCAFile: String?

    private static func help(_ setting: ServeSetting) -> ArgumentHelp { ArgumentHelp(setting.commandLineHelp) }

    /// The flags given, keyed by their setting: the first provider of the configuration.
    var flags: InMemoryProvider {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        func put(_ setting: ServeSetting, _ content: ConfigContent?) {
            if let content { values[AbsoluteConfigKey([setting.key])] = ConfigValue(content, isSecret: setting.isSecret) }
        }
        put(.categories, categories.map(ConfigContent.string))
        put(.host, host.map(ConfigContent.string))
        put(.port, port.map(ConfigContent.int))
        put(.storage, storage.map(ConfigContent.string))
        put(.storageTimeout, storageTimeout.map(ConfigContent.int))
        put(.tokenKey, tokenKeys.isEmpty ? nil : .stringArray(tokenKeys))
        put(.insecureDevelopmentKey, insecureDevelopmentKey ? .bool(true) : nil)
        put(.acceptUnboundPayloads, acceptUnboundPayloads ? .bool(true) : nil)
        put(.appJWTKey, appJWTKeys.isEmpty ? nil : .stringArray(appJWTKeys))
        put(.appJWTAudience, appJWTAudience.map(ConfigContent.string))
        put(.forward, forwards.isEmpty ? nil : .stringArray(forwards))
        put(.forwardSecret, forwardSecret.map(ConfigContent.string))
        put(.breakerFailures, breakerFailures.map(ConfigContent.int))
        put(.breakerProbe, breakerProbe.map(ConfigContent.string))
        put(.opsEndpoint, opsEndpoint.map(ConfigContent.string))
        put(.maxBodySize, maxBodySize.map(ConfigContent.int))
        put(.maxInFlight, maxInFlight.map(ConfigContent.int))
        put(.readTimeout, readTimeout.map(ConfigContent.string))
        put(.idleTimeout, idleTimeout.map(ConfigContent.string))
        put(.maxConnections, maxConnections.map(ConfigContent.int))
        put(.maxConnectionsPerAddress, maxConnectionsPerAddress.map(ConfigContent.int))
        put(.forwardTimeout, forwardTimeout.map(ConfigContent.string))
        put(.shutdownGrace, shutdownGrace.map(ConfigContent.string))
        put(.endpointConcurrency, endpointConcurrency.map(ConfigContent.int))
        put(.maxDevicesPerUser, maxDevicesPerUser.map(ConfigContent.int))
        put(.deviceRegistrationsPerHour, deviceRegistrationsPerHour.map(ConfigContent.int))
        put(.metricsAddress, metricsAddress.map(ConfigContent.string))
        put(.otelEndpoint, otelEndpoint.map(ConfigContent.string))
        put(.deliveryLease, deliveryLease.map(ConfigContent.int))
        put(.adminToken, adminToken.map(ConfigContent.string))
        put(.adminSecureCookie, adminSecureCookie ? .bool(true) : nil)
        put(.retryFor, retryFor.map(ConfigContent.string))
        put(.retryFirstDelay, retryFirstDelay.map(ConfigContent.string))
        put(.retryMaxDelay, retryMaxDelay.map(ConfigContent.string))
        put(.tlsCertificate, tlsCertificate.map(ConfigContent.string))
        put(.tlsKey, tlsKey.map(ConfigContent.string))
        put(.backendToken, backendToken.map(ConfigContent.string))
        put(.badgeLifetime, badgeLifetime.map(ConfigContent.string))
        put(.retention, retention.map(ConfigContent.string))
        put(.apnsKeyFile, apnsKeyFile.map(ConfigContent.string))
        put(.apnsKeyID, apnsKeyID.map(ConfigContent.string))
        put(.apnsTeamID, apnsTeamID.map(ConfigContent.string))
        put(.apnsTopic, apnsTopic.map(ConfigContent.string))
        put(.apnsURL, apnsURL.map(ConfigContent.string))
        put(.apnsCAFile, apnsCAFile.map(ConfigContent.string))
        put(.apnsConnections, apnsConnections.map(ConfigContent.int))
        put(.fcmServiceAccount, fcmServiceAccount.map(ConfigContent.string))
        put(.fcmURL, fcmURL.map(ConfigContent.string))
        put(.fcmCAFile, fcmCAFile.map(ConfigContent.string))
        return InMemoryProvider(name: "flags", values: values)
    }

    /// Flags, then the environment, then the file of `--config`.
    func reader() async throws -> ConfigReader {
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
        let catalog = try loadCheckedCatalog(configuration.categories)
        let service: ActionableService
        do {
            service = try await ActionableService(configuration: configuration, catalog: catalog, logger: logger)
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
