import ActionableCore
import ActionableHTTP
public import Configuration
public import Foundation

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
        for setting in ServeSetting.all { try setting.read(settings, &self) }
        // Derived, not set: a server with its own certificate marks the admin cookie Secure.
        server.secureAdminCookie = server.secureAdminCookie || tls != nil
        server.hasDefaultWebhookSecret = forwardSecret != nil
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

// The settings that fill one value together (the TLS pair, APNs, FCM), each as a property of its
// own: a setting given starts the value, and `validate()` says which of its parts are missing.
extension ActionableConfiguration {
    var tlsCertificate: String? {
        get { tls?.certificate }
        set { if let newValue { tls = TLSFiles(certificate: newValue, key: tls?.key ?? "") } }
    }
    var tlsKey: String? {
        get { tls?.key }
        set { if let newValue { tls = TLSFiles(certificate: tls?.certificate ?? "", key: newValue) } }
    }
    /// APNs' settings as its flags fill them: empty parts until given.
    var apnsGroup: APNsGroup {
        get { APNsGroup(apns) }
        set { apns = newValue.settings }
    }
    /// FCM's settings as its flags fill them.
    var fcmGroup: FCMGroup {
        get { FCMGroup(fcm) }
        set { fcm = newValue.settings }
    }

    /// The parts of ``APNsSettings``, each optional.
    struct APNsGroup {
        var keyFile, keyID, teamID, topic, url, caFile: String?
        init(_ settings: APNsSettings?) {
            (keyFile, keyID, teamID, topic) = (settings?.keyFile, settings?.keyID, settings?.teamID, settings?.topic)
            (url, caFile) = (settings?.url, settings?.caFile)
        }
        /// `nil` until one part is given; a missing required part stays empty, for `validate()`.
        var settings: APNsSettings? {
            guard [keyFile, keyID, teamID, topic, url, caFile].contains(where: { $0 != nil }) else { return nil }
            return APNsSettings(
                keyFile: keyFile ?? "", keyID: keyID ?? "", teamID: teamID ?? "", topic: topic ?? "", url: url, caFile: caFile)
        }
    }

    /// The parts of ``FCMSettings``, each optional.
    struct FCMGroup {
        var serviceAccountFile, url, caFile: String?
        init(_ settings: FCMSettings?) { (serviceAccountFile, url, caFile) = (settings?.serviceAccountFile, settings?.url, settings?.caFile) }
        var settings: FCMSettings? {
            guard [serviceAccountFile, url, caFile].contains(where: { $0 != nil }) else { return nil }
            return FCMSettings(serviceAccountFile: serviceAccountFile ?? "", url: url, caFile: caFile)
        }
    }
}
