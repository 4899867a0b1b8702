import ActionableCore
import ActionableDelivery
import ActionableHTTP
import ActionableStore
import ActionableTokens
import Configuration
import Foundation

extension ActionableConfiguration {
    /// Reads every ``ServeSetting`` from `reader`, after Hummingbird's
    /// `ApplicationConfiguration(reader:)`: each setting by its key (`port`, `badge-lifetime`),
    /// falling back to its default. `actionable serve` passes a reader of its flags, the
    /// `ACTIONABLE_*` environment variables (`environmentProvider()`) and its JSON file, in
    /// that order; an embedding program may pass any providers.
    ///
    /// ```swift
    /// let reader = ConfigReader(providers: [ActionableConfiguration.environmentProvider()])
    /// let configuration = try ActionableConfiguration(reader: reader)
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` naming the setting (as its flag) and the fix, for a value
    ///   that does not parse or a combination ``validate()`` refuses.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        self.init()
        let settings = SettingReader(reader: reader)
        categories = settings.text(.categories) ?? categories
        host = settings.text(.host) ?? host
        port = try settings.integer(.port) ?? port
        storage = settings.text(.storage) ?? storage
        storageTimeout = try settings.integer(.storageTimeout).map { .seconds($0) }
        tokenKeys = try settings.list(.tokenKey).map { text throws(ConfigurationError) in try settings.key(text, .tokenKey) }
        appJWTKeys = try settings.list(.appJWTKey).map { text throws(ConfigurationError) in try settings.key(text, .appJWTKey) }
        appJWTAudience = settings.text(.appJWTAudience) ?? appJWTAudience
        insecureDevelopmentKey = try settings.toggle(.insecureDevelopmentKey)
        forwards = try settings.list(.forward).map { text throws(ConfigurationError) in
            do {
                return try ForwardRoute(parsing: text)
            } catch {
                throw ConfigurationError("--forward: \(error)")
            }
        }
        forwardSecret = settings.text(.forwardSecret)
        breaker = BreakerSettings(
            failures: try settings.integer(.breakerFailures) ?? breaker.failures, probeEvery: try settings.duration(.breakerProbe))
        opsEndpoint = settings.text(.opsEndpoint)
        otelEndpoint = settings.text(.otelEndpoint)
        deliveryLease = try settings.integer(.deliveryLease).map { .seconds($0) } ?? deliveryLease
        retention = .seconds(try settings.duration(.retention, zeroAllowed: true))
        let firstDelay = try settings.duration(.retryFirstDelay)
        let maximumDelay = try settings.duration(.retryMaxDelay)
        guard maximumDelay >= firstDelay else {
            throw ConfigurationError("--retry-max-delay must be at least --retry-first-delay", usage: true)
        }
        retryPolicy = RetryPolicy(firstDelay: firstDelay, maximumDelay: maximumDelay, retryFor: try settings.duration(.retryFor))
        readTimeout = .seconds(try settings.duration(.readTimeout))
        idleTimeout = .seconds(try settings.duration(.idleTimeout))
        maximumConnections = try settings.integer(.maxConnections) ?? maximumConnections
        maximumConnectionsPerAddress = try settings.integer(.maxConnectionsPerAddress) ?? maximumConnectionsPerAddress
        forwardTimeout = .seconds(try settings.duration(.forwardTimeout))
        endpointConcurrency = try settings.integer(.endpointConcurrency) ?? endpointConcurrency
        shutdownGrace = .seconds(try settings.duration(.shutdownGrace))
        if let address = settings.text(.metricsAddress) {
            do throws(ConfigurationError) {
                metricsAddress = try ListenAddress(parsing: address)
            } catch {
                throw ConfigurationError("--metrics-address: \(error)")
            }
        }
        let certificate = settings.text(.tlsCertificate)
        let key = settings.text(.tlsKey)
        guard (certificate == nil) == (key == nil) else {
            throw ConfigurationError("--tls-certificate and --tls-key go together: give both, or neither", usage: true)
        }
        if let certificate, let key { tls = TLSFiles(certificate: certificate, key: key) }
        server = ServerSettings(
            maximumBodySize: try settings.integer(.maxBodySize) ?? server.maximumBodySize,
            adminToken: settings.text(.adminToken),
            maximumConcurrentAccepts: try settings.integer(.maxInFlight) ?? server.maximumConcurrentAccepts,
            backendToken: settings.text(.backendToken), badgeLifetime: try settings.duration(.badgeLifetime))
        let secureCookie = try settings.toggle(.adminSecureCookie)
        server.secureAdminCookie = tls != nil || secureCookie
        server.acceptUnboundPayloads = try settings.toggle(.acceptUnboundPayloads)
        server.hasDefaultWebhookSecret = forwardSecret != nil
        server.deviceLimits = DeviceLimits(
            maximumActive: try settings.integer(.maxDevicesPerUser) ?? server.deviceLimits.maximumActive,
            registrationsPerHour: try settings.integer(.deviceRegistrationsPerHour) ?? server.deviceLimits.registrationsPerHour)
        apnsConnections = try settings.integer(.apnsConnections) ?? apnsConnections
        let apnsRequired: [ServeSetting] = [.apnsKeyFile, .apnsKeyID, .apnsTeamID, .apnsTopic]
        let apnsGiven = apnsRequired.map { settings.text($0) }
        if apnsGiven.contains(where: { $0 != nil }) {
            guard let keyFile = apnsGiven[0], let keyID = apnsGiven[1], let teamID = apnsGiven[2], let topic = apnsGiven[3] else {
                let missing = zip(apnsRequired, apnsGiven).filter { $0.1 == nil }.map(\.0.flag).joined(separator: ", ")
                throw ConfigurationError(
                    "sending to APNs needs --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic together; missing \(missing)",
                    usage: true)
            }
            apns = APNsSettings(
                keyFile: keyFile, keyID: keyID, teamID: teamID, topic: topic, url: settings.text(.apnsURL), caFile: settings.text(.apnsCAFile))
        } else if let stray = [ServeSetting.apnsURL, .apnsCAFile].first(where: { settings.text($0) != nil }) {
            throw ConfigurationError("\(stray.flag) needs --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic", usage: true)
        }
        if let account = settings.text(.fcmServiceAccount) {
            fcm = FCMSettings(serviceAccountFile: account, url: settings.text(.fcmURL), caFile: settings.text(.fcmCAFile))
        } else if let stray = [ServeSetting.fcmURL, .fcmCAFile].first(where: { settings.text($0) != nil }) {
            throw ConfigurationError("\(stray.flag) needs --fcm-service-account", usage: true)
        }
        try validate()
    }

    /// The `ACTIONABLE_*` environment variables as a provider of ``ServeSetting`` keys:
    /// `ACTIONABLE_BADGE_LIFETIME` answers `badge-lifetime`; lists are comma-separated.
    public static func environmentProvider(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> some ConfigProvider {
        KeyMappingProvider(upstream: EnvironmentVariablesProvider(environmentVariables: environment)) { key in
            AbsoluteConfigKey(
                ["actionable"] + key.components.flatMap { $0.split(separator: "-").map(String.init) }, context: key.context)
        }
    }
}

/// Reads the typed value of a ``ServeSetting`` from a `ConfigReader`, with an error that names
/// the flag and the fix when the value does not parse.
struct SettingReader {
    let reader: ConfigReader

    func text(_ setting: ServeSetting) -> String? {
        reader.string(forKey: ConfigKey([setting.key]), isSecret: setting.isSecret)
    }

    func list(_ setting: ServeSetting) -> [String] {
        reader.stringArray(forKey: ConfigKey([setting.key]), isSecret: setting.isSecret)
            ?? text(setting).map { [$0] } ?? []
    }

    /// A whole number, written as a number (a flag, a JSON number) or as text (the environment).
    func integer(_ setting: ServeSetting) throws(ConfigurationError) -> Int? {
        if let number = reader.int(forKey: ConfigKey([setting.key])) { return number }
        guard let text = text(setting) else { return nil }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError("\(setting.flag) \(text): use a whole number", usage: true)
        }
        return number
    }

    /// Seconds, from `90s`, `30m`, `12h`, `7d` (or `0` where `zeroAllowed`), or the default.
    func duration(_ setting: ServeSetting, zeroAllowed: Bool = false) throws(ConfigurationError) -> TimeInterval {
        let value = text(setting) ?? setting.defaultValue ?? "0s"
        if zeroAllowed && value == "0" { return 0 }
        guard let seconds = DurationText.seconds(value) else {
            throw ConfigurationError("\(setting.flag) \(value): use a number and a unit, as in 90s, 30m, 12h or 30d", usage: true)
        }
        return seconds
    }

    /// On when given as a flag, or as `true`/`1` in the environment or a file.
    func toggle(_ setting: ServeSetting) throws(ConfigurationError) -> Bool {
        if let value = reader.bool(forKey: ConfigKey([setting.key])) { return value }
        guard let text = text(setting) else { return false }
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off", "": return false
        default: throw ConfigurationError("\(setting.flag) \(text): use true or false", usage: true)
        }
    }

    func key(_ text: String, _ setting: ServeSetting) throws(ConfigurationError) -> ActionTokenKey {
        do {
            return try ActionTokenKey(parsing: text)
        } catch {
            throw ConfigurationError("\(setting.flag): \(error)")
        }
    }
}
