import ActionableDelivery
import ActionableServer
import ActionableService
import ActionableTokens
import ArgumentParser
import Configuration
import Foundation
import Logging

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
    var backendToken: String?
    var badgeLifetime: TimeInterval
    var retention: TimeInterval
    var retryFor: TimeInterval
    var retryFirstDelay: TimeInterval
    var retryMaxDelay: TimeInterval
    var secureCookie: Bool
    var appJWTAudience: String
    var insecureDevelopmentKey: Bool
    var acceptUnboundPayloads: Bool
    var readTimeout: TimeInterval
    var idleTimeout: TimeInterval
    var maxConnections: Int
    var metricsAddress: String?

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
        backendToken = string(command.backendToken, "backend-token", secret: true)
        secureCookie = command.adminSecureCookie
        func duration(_ flag: String?, _ name: String, default fallback: String, zero: Bool = false) throws -> TimeInterval {
            let text = string(flag, name) ?? fallback
            if zero && text == "0" { return 0 }
            guard let seconds = DurationArgument.seconds(text) else {
                throw ValidationError("--\(name) \(text): use a number and a unit, as in 90s, 30m, 12h or 30d")
            }
            return seconds
        }
        badgeLifetime = try duration(command.badgeLifetime, "badge-lifetime", default: "30d")
        retention = try duration(command.retention, "retention", default: "30d", zero: true)
        retryFor = try duration(command.retryFor, "retry-for", default: "24h")
        retryFirstDelay = try duration(command.retryFirstDelay, "retry-first-delay", default: "1s")
        retryMaxDelay = try duration(command.retryMaxDelay, "retry-max-delay", default: "1h")
        if retryMaxDelay < retryFirstDelay {
            throw ValidationError("--retry-max-delay must be at least --retry-first-delay")
        }
        appJWTAudience = string(command.appJWTAudience, "app-jwt-audience") ?? "actionable"
        insecureDevelopmentKey = command.insecureDevelopmentKey
        acceptUnboundPayloads = command.acceptUnboundPayloads
        readTimeout = try duration(command.readTimeout, "read-timeout", default: "10s")
        idleTimeout = try duration(command.idleTimeout, "idle-timeout", default: "60s")
        maxConnections = int(command.maxConnections, "max-connections") ?? 4096
        metricsAddress = string(command.metricsAddress, "metrics-address")
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
        configuration.retention = .seconds(retention)
        configuration.retryPolicy = RetryPolicy(firstDelay: retryFirstDelay, maximumDelay: retryMaxDelay, retryFor: retryFor)
        configuration.server = ServerSettings(
            maximumBodySize: maxBodySize, adminToken: adminToken, maximumConcurrentAccepts: maxInFlight,
            backendToken: backendToken, badgeLifetime: badgeLifetime)
        if let tlsCertificate, let tlsKey {
            configuration.tls = .init(certificate: tlsCertificate, key: tlsKey)
        }
        configuration.server.secureAdminCookie = tlsCertificate != nil || secureCookie
        configuration.server.acceptUnboundPayloads = acceptUnboundPayloads
        configuration.appJWTAudience = appJWTAudience
        configuration.insecureDevelopmentKey = insecureDevelopmentKey
        configuration.readTimeout = .seconds(readTimeout)
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.maximumConnections = maxConnections
        if let metricsAddress {
            do {
                configuration.metricsAddress = try .init(parsing: metricsAddress)
            } catch {
                throw refuse("--metrics-address: \(error)")
            }
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
