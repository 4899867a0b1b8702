import ActionableCore
public import ActionableDelivery
public import ActionableHTTP
public import ActionableStore
public import ActionableTokens
import Foundation

/// Everything `actionable serve` can be told, as one value: a Swift program that embeds the
/// server fills it in code; the command line fills it from flags, the environment and a file.
///
/// ```swift
/// var configuration = ActionableConfiguration()
/// configuration.categories = "Categories"
/// configuration.storage = "postgres://actionable:secret@db.internal:5432/actionable"
/// configuration.tokenKeys = [try ActionTokenKey(parsing: "k1=\(secret)")]
/// let service = try await ActionableService(configuration: configuration, logger: logger)
/// ```
public struct ActionableConfiguration: Sendable {
    /// The directory of category files.
    public var categories: String = "Categories"
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (see ``ActionableService/init(configuration:catalog:storageDrivers:logger:onServerRunning:routes:)``).
    public var port: Int = 8080
    /// Where responses are stored: `sqlite:PATH`, `postgres://user:password@host:port/database`
    /// or `memory:` (see `StorageDriverRegistry`).
    public var storage: String = "sqlite:.actionable/actionable.sqlite"
    /// How long start-up waits for storage before it gives up; `nil` waits for as long as it
    /// takes, answering `/readyz` with 503 meanwhile.
    public var storageTimeout: Duration?
    /// Keys verifying action tokens; the first signs. Empty: the development key under
    /// ``developmentKeyDirectory``, with a warning.
    public var tokenKeys: [ActionTokenKey] = []
    /// Where the development key is kept when ``tokenKeys`` is empty.
    public var developmentKeyDirectory: String = ".actionable"
    /// Keys verifying the app's own bearer JWT; when any are given, every action response needs one.
    public var appJWTKeys: [ActionTokenKey] = []
    /// Upstreams that accepted responses are forwarded to, signed with ``forwardSecret``.
    public var forwards: [ForwardRoute] = []
    /// The Standard Webhooks secret (`whsec_…`) signing forwarded responses.
    public var forwardSecret: String?
    /// When an endpoint's circuit breaker opens, and how often it is probed.
    public var breaker: BreakerSettings = BreakerSettings()
    /// Where `delivery.dead` events go (signed with ``forwardSecret``); `nil`: nowhere.
    public var opsEndpoint: String?
    /// The OpenTelemetry collector traces go to (OTLP/HTTP; `/v1/traces` is appended unless the
    /// URL ends with it); `nil`, the default: no tracing. See ``ActionableService``.
    public var otelEndpoint: String?
    /// The retry schedule of deliveries.
    public var retryPolicy: RetryPolicy = RetryPolicy()
    /// How long a delivery claim is held before another instance may take it over.
    public var deliveryLease: Duration = .seconds(60)
    /// How long delivered and dead responses, and read or expired badge entries, are kept
    /// (``RetentionWorker``); `.zero` keeps everything. Pending responses are never deleted.
    public var retention: Duration = .seconds(30 * 86400)
    /// The HTTP layer's limits, the admin token and the `Retry-After` policy.
    public var server: ServerSettings = ServerSettings()
    /// Serve HTTPS with this certificate and key instead of plain HTTP (TLS 1.2 and 1.3 only).
    public var tls: TLSFiles?
    /// The audience (`aud`) every app JWT must name (`--app-jwt-audience`).
    public var appJWTAudience: String = "actionable"
    /// Start with the development token key even on a non-loopback address. Without it, a
    /// server listening beyond loopback with no ``tokenKeys`` refuses to start: the development
    /// key is a file anyone with the working directory can read.
    public var insecureDevelopmentKey: Bool = false
    /// How long a request's header and body may take to arrive — the first request of a
    /// connection from its opening, a later one from its first byte; a slower connection is
    /// closed (`--read-timeout`).
    public var readTimeout: Duration = .seconds(10)
    /// How long an idle keep-alive connection stays open (`--idle-timeout`).
    public var idleTimeout: Duration = .seconds(60)
    /// The most connections open at once; past it, new ones wait in the listen backlog
    /// (`--max-connections`).
    public var maximumConnections: Int = 4096
    /// The most connections open at once from one peer address; past it, a new one is closed at
    /// once (`--max-connections-per-address`; 0: no limit).
    public var maximumConnectionsPerAddress: Int = 64
    /// How long one attempt to an endpoint or the ops endpoint may take, its answer's head and
    /// body together (`--forward-timeout`).
    public var forwardTimeout: Duration = .seconds(10)
    /// How long one attempt of a copy at APNs may take, Apple's answer included (`--apns-timeout`).
    public var apnsTimeout: Duration = .seconds(10)
    /// How long one attempt of a copy at FCM may take, an access token's exchange included (`--fcm-timeout`).
    public var fcmTimeout: Duration = .seconds(10)
    /// The most attempts in flight to one endpoint, refilled as each answers
    /// (`--endpoint-concurrency`).
    public var endpointConcurrency: Int = 32
    /// How long a graceful shutdown (SIGTERM) may take before what is still running is cancelled
    /// (`--shutdown-grace`).
    public var shutdownGrace: Duration = .seconds(15)
    /// Serve `GET /metrics` on this separate listener, open to whoever reaches it (bind it to
    /// loopback or a private network). On the main listener, `/metrics` needs the admin token.
    public var metricsAddress: ListenAddress?

    /// Send notifications to APNs (`POST /v1/send`); `nil` does not send.
    public var apns: APNsSettings?
    /// Long-lived HTTP/2 connections to each APNs host.
    public var apnsConnections: Int = 2
    /// Send notifications to Android devices through FCM (`POST /v1/send`); `nil` does not.
    public var fcm: FCMSettings?

    /// The fewest bytes an admin or backend token may have.
    public static let minimumSecretLength = 32

    /// The defaults of `actionable serve`.
    public init() {}

    /// A PEM certificate chain and its private key.
    public struct TLSFiles: Sendable, Hashable {
        /// The certificate chain file (PEM), the server's own certificate first.
        public var certificate: String
        /// The private key file (PEM).
        public var key: String

        /// The files at `certificate` and `key`.
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// How the server reaches FCM (`--fcm-*`).
    public struct FCMSettings: Sendable, Hashable {
        /// The service account's JSON file, as Google issues it.
        public var serviceAccountFile: String
        /// A base URL instead of `https://fcm.googleapis.com` (a stand-in).
        public var url: String?
        /// PEM certificates to trust instead of the system's (for FCM and the token endpoint).
        public var caFile: String?

        /// Settings sending with the service account in `serviceAccountFile`.
        public init(serviceAccountFile: String, url: String? = nil, caFile: String? = nil) {
            self.serviceAccountFile = serviceAccountFile
            self.url = url
            self.caFile = caFile
        }
    }

    /// How the server reaches APNs (`--apns-*`).
    public struct APNsSettings: Sendable, Hashable {
        /// The provider key file (PEM, `AuthKey_KID.p8`).
        public var keyFile: String
        /// The key's id.
        public var keyID: String
        /// The developer team id.
        public var teamID: String
        /// The app's bundle id.
        public var topic: String
        /// A base URL instead of Apple's hosts (a stand-in).
        public var url: String?
        /// PEM certificates to trust instead of the system's.
        public var caFile: String?

        /// Settings sending as `teamID`'s key `keyID` (in `keyFile`) to the app `topic`.
        public init(keyFile: String, keyID: String, teamID: String, topic: String, url: String? = nil, caFile: String? = nil) {
            self.keyFile = keyFile
            self.keyID = keyID
            self.teamID = teamID
            self.topic = topic
            self.url = url
            self.caFile = caFile
        }
    }

    /// A host and port to listen on.
    public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
        /// The address (`127.0.0.1`, `::1`, `0.0.0.0`, a host name).
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int

        /// Listens on `host` at `port`.
        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// Parses `HOST:PORT` (`[::1]:9090` for an IPv6 address).
        public init(parsing text: String) throws(ConfigurationError) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port)
            else { throw ConfigurationError("\(text) is not HOST:PORT (e.g. 127.0.0.1:9090)") }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw ConfigurationError("\(text) names no host (e.g. 127.0.0.1:9090)") }
            self.init(host: host, port: port)
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// Whether the address is a loopback one (`localhost`, `127.0.0.0/8`, `::1`).
        public var isLoopback: Bool { LoopbackHost.contains(host) }
    }

    /// Checks what can be checked before anything starts, with a message that names the setting:
    /// each setting's value against its bounds (declared with it, ``ServeSetting``), then what
    /// settings require of each other.
    public func validate() throws(ConfigurationError) {
        for setting in ServeSetting.all { try setting.check(self) }
        try Self.checkSecret(server.adminToken, "admin token", flag: ServeSetting.adminToken.flag)
        try Self.checkSecret(server.backendToken, "backend token", flag: ServeSetting.backendToken.flag)
        if let reused = appJWTKeys.first(where: { app in tokenKeys.contains { $0.hasSameSecret(as: app) } }) {
            throw ConfigurationError(
                "app JWT key \(reused.id) has the secret of an action-token key: an action token would then pass as the user's "
                    + "app JWT; give \(ServeSetting.appJWTKey.flag) a secret of its own")
        }
        guard !appJWTAudience.isEmpty else { throw ConfigurationError("the app JWT audience must not be empty") }
        if tokenKeys.isEmpty && !LoopbackHost.contains(host) && !insecureDevelopmentKey {
            throw ConfigurationError(
                "listening on \(host) with the development token key: anyone who can read \(developmentKeyDirectory)/ could "
                    + "sign action tokens; pass \(ServeSetting.tokenKey.flag) ID=SECRET (or \(ServeSetting.insecureDevelopmentKey.flag) for a throwaway test)"
            )
        }
        if let tls, tls.certificate.isEmpty || tls.key.isEmpty {
            throw ConfigurationError(
                "\(ServeSetting.tlsCertificate.flag) and \(ServeSetting.tlsKey.flag) go together: give both, or neither", usage: true)
        }
        // An attempt must end (and be recorded) before its lease runs out: otherwise another
        // instance takes it over mid-attempt, and the expired lease counts it towards poison.
        for (flag, timeout) in attemptTimeouts {
            guard deliveryLease >= timeout + .seconds(1) else {
                throw ConfigurationError(
                    "\(ServeSetting.deliveryLease.flag) must be at least \(flag) plus a second: an attempt ends before its lease", usage: true)
            }
            guard shutdownGrace >= timeout + .seconds(1) else {
                throw ConfigurationError(
                    "\(ServeSetting.shutdownGrace.flag) must be longer than \(flag): attempts in flight finish within it", usage: true)
            }
        }
        guard retryPolicy.maximumDelay >= retryPolicy.firstDelay else {
            throw ConfigurationError("\(ServeSetting.retryMaxDelay.flag) must be at least \(ServeSetting.retryFirstDelay.flag)", usage: true)
        }
        if !forwards.isEmpty && forwardSecret == nil { throw ConfigurationError.missingForwardSecret }
        try ForwardRoute.checkDistinct(forwards)
        if let opsEndpoint {
            guard Self.isHTTPURL(opsEndpoint) else {
                throw ConfigurationError("\(ServeSetting.opsEndpoint.flag) takes an http:// or https:// URL", usage: true)
            }
            guard forwardSecret != nil else {
                throw ConfigurationError(
                    "\(ServeSetting.opsEndpoint.flag) needs \(ServeSetting.forwardSecret.flag) whsec_… to sign the events it sends", usage: true)
            }
        }
        if let otelEndpoint {
            guard Self.isHTTPURL(otelEndpoint) else {
                throw ConfigurationError(
                    "\(ServeSetting.otelEndpoint.flag) takes an http:// or https:// URL, such as http://localhost:4318", usage: true)
            }
        }
        if let apns {
            let parts: [(ServeSetting, String)] = [
                (.apnsKeyFile, apns.keyFile), (.apnsKeyID, apns.keyID), (.apnsTeamID, apns.teamID), (.apnsTopic, apns.topic),
            ]
            let missing = parts.filter { $0.1.isEmpty }.map(\.0.flag)
            guard missing.isEmpty else {
                throw ConfigurationError(
                    "sending to APNs needs \(ServeSetting.apnsKeyFile.flag), \(ServeSetting.apnsKeyID.flag), \(ServeSetting.apnsTeamID.flag) and \(ServeSetting.apnsTopic.flag) together; missing "
                        + missing.joined(separator: ", "), usage: true)
            }
            guard let url = URL(string: apns.url ?? "https://api.push.apple.com"), url.scheme == "https", url.host != nil else {
                throw ConfigurationError(
                    "\(ServeSetting.apnsURL.flag) \(apns.url ?? ""): APNs is reached over HTTPS; give https://HOST:PORT", usage: true)
            }
            guard server.backendToken != nil else {
                throw ConfigurationError(
                    "sending (\(ServeSetting.apnsKeyFile.flag)) needs \(ServeSetting.backendToken.flag): POST /v1/send takes the backend's token",
                    usage: true)
            }
        }
        if let fcm {
            guard !fcm.serviceAccountFile.isEmpty else {
                let given = [fcm.url.map { _ in ServeSetting.fcmURL.flag }, fcm.caFile.map { _ in ServeSetting.fcmCAFile.flag }].compactMap { $0 }
                throw ConfigurationError(
                    "\(given.isEmpty ? "FCM's settings" : given.joined(separator: " and ")) \(given.count == 1 ? "needs" : "need") \(ServeSetting.fcmServiceAccount.flag) (the Firebase "
                        + "service account's JSON file) to send to FCM", usage: true)
            }
            guard let url = URL(string: fcm.url ?? "https://fcm.googleapis.com"), url.scheme == "https", url.host != nil else {
                throw ConfigurationError(
                    "\(ServeSetting.fcmURL.flag) \(fcm.url ?? ""): FCM is reached over HTTPS; give https://HOST:PORT", usage: true)
            }
            guard server.backendToken != nil else {
                throw ConfigurationError(
                    "sending (\(ServeSetting.fcmServiceAccount.flag)) needs \(ServeSetting.backendToken.flag): POST /v1/send takes the backend's token",
                    usage: true)
            }
        }
    }

    /// Each way out's timeout with its flag: endpoints always, APNs and FCM when the server sends.
    var attemptTimeouts: [(String, Duration)] {
        [(ServeSetting.forwardTimeout.flag, forwardTimeout)] + (apns == nil ? [] : [(ServeSetting.apnsTimeout.flag, apnsTimeout)])
            + (fcm == nil ? [] : [(ServeSetting.fcmTimeout.flag, fcmTimeout)])
    }
}

extension ActionableConfiguration {
    /// Whether `text` is an `http://` or `https://` URL with a host (`--ops-endpoint`, `--otel-endpoint`).
    static func isHTTPURL(_ text: String) -> Bool {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && URL(string: text)?.host != nil
    }

    /// A token of at least ``ActionableConfiguration/minimumSecretLength`` bytes, when given.
    static func checkSecret(_ secret: String?, _ name: String, flag: String) throws(ConfigurationError) {
        guard let secret else { return }
        let length = secret.utf8.count
        guard length >= minimumSecretLength else {
            let hint = length == 0 ? " (an empty one is often an unset variable)" : ""
            throw ConfigurationError(
                "the \(name) (\(flag)) is \(length) bytes\(hint); it must be at least \(minimumSecretLength) bytes: "
                    + "generate one with `openssl rand -base64 32`")
        }
    }
}

/// A setting that cannot work, with what to change.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// Whether a value was written wrong (a malformed number or duration, a setting out of its
    /// range, two that go together given apart) rather than refused as unsafe or unusable:
    /// `actionable serve` exits with its usage status (2) for these, 1 for the others.
    public let isUsage: Bool

    /// An error described by `description`.
    public init(_ description: String, usage: Bool = false) {
        self.description = description
        self.isUsage = usage
    }

    /// Forwards were given without the secret that signs them.
    static let missingForwardSecret = ConfigurationError(
        "\(ServeSetting.forward.flag) needs \(ServeSetting.forwardSecret.flag) whsec_… to sign what it sends", usage: true)
}
