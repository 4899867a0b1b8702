import ActionableCore

/// One setting of the server, written once: its key, the value it takes, its default and its
/// documentation. ``ActionableConfiguration/init(reader:)`` reads it; `actionable serve`
/// declares its flag from it; the settings table of the docs is rendered from ``all``.
///
/// The key is the flag's name without `--`. The same key names the setting in a JSON file of
/// settings (`{"port": 9000}`), and `ACTIONABLE_` and the key in capitals with `_` for `-`
/// name its environment variable (`ACTIONABLE_BADGE_LIFETIME`).
public struct ServeSetting: Sendable, Hashable, CustomStringConvertible {
    /// What a setting's value is.
    public enum Kind: Sendable, Hashable {
        /// Text.
        case text
        /// A whole number.
        case integer
        /// A number and a unit: `90s`, `30m`, `12h`, `7d`.
        case duration
        /// On or off (a flag without a value on the command line).
        case toggle
        /// Text, repeatable (a repeated flag; comma-separated in the environment; an array in a file).
        case list
    }

    /// The flag's name without `--`, and the JSON file's key.
    public let key: String
    /// What its value is.
    public let kind: Kind
    /// What the value looks like in the docs: `DIR`, `N`, `DURATION`, `ID=SECRET`.
    public let placeholder: String
    /// The default as the command line would write it, read from ``ActionableConfiguration``'s
    /// own default (the one home of each default); `nil` when there is none.
    public var defaultValue: String? { defaultText?(ActionableConfiguration()) }
    private let defaultText: (@Sendable (ActionableConfiguration) -> String)?
    /// What it does, one sentence or two.
    public let help: String
    /// Whether the value is a secret (never logged or printed).
    public let isSecret: Bool

    init(
        _ key: String, _ kind: Kind, _ placeholder: String = "",
        default defaultText: (@Sendable (ActionableConfiguration) -> String)? = nil, secret: Bool = false, _ help: String
    ) {
        self.key = key
        self.kind = kind
        self.placeholder = placeholder
        self.defaultText = defaultText
        self.help = help
        self.isSecret = secret
    }

    /// `--key`.
    public var flag: String { "--\(key)" }

    /// The environment variable: `ACTIONABLE_` and the key in capitals, `_` for `-`.
    public var environmentVariable: String { "ACTIONABLE_" + key.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The help of `actionable serve --help`: ``help`` without Markdown, and the default.
    public var commandLineHelp: String {
        let text = help.replacingOccurrences(of: "`", with: "")
        guard let defaultValue, kind != .toggle else { return text + "." }
        return "\(text) (default: \(defaultValue))."
    }

    public static func == (lhs: ServeSetting, rhs: ServeSetting) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// How the docs name it: `--retention DURATION`.
    public var description: String { placeholder.isEmpty ? flag : "\(flag) \(placeholder)" }
}

extension ServeSetting {
    public static let categories = ServeSetting(
        "categories", .text, "DIR", default: { $0.categories }, "the catalog served; one with lint errors is refused (exit 1)")
    public static let host = ServeSetting(
        "host", .text, "HOST", default: { $0.host }, "the address to listen on")
    public static let port = ServeSetting(
        "port", .integer, "PORT", default: { String($0.port) }, "the port to listen on; 0 picks a free one (the log names it)")
    public static let storage = ServeSetting(
        "storage", .text, "URL", default: { $0.storage }, secret: true,
        """
        `sqlite:PATH`, `postgres://user:password@host:port/database[?sslmode=…&schema=…]`, or `memory:` (nothing kept). \
        Without `sslmode`, a PostgreSQL host other than loopback gets `verify-full` (certificate and name checked); write \
        `sslmode=require`, `prefer` or `disable` to weaken it
        """)
    public static let storageTimeout = ServeSetting(
        "storage-timeout", .integer, "SECONDS",
        "give up with exit 1 when storage is not reachable within this time; without it, `serve` keeps trying and `/readyz` answers 503")
    public static let tokenKey = ServeSetting(
        "token-key", .list, "ID=SECRET", secret: true,
        """
        keys verifying action tokens (repeatable; the first signs). Without one, a development key is created under \
        `.actionable/`, and it is refused on an address other than loopback
        """)
    public static let insecureDevelopmentKey = ServeSetting(
        "insecure-development-key", .toggle, "", "allow the development key beyond loopback (a throwaway test server only)")
    public static let acceptUnboundPayloads = ServeSetting(
        "accept-unbound-payloads", .toggle, "",
        """
        accept action tokens without a `pld` claim (minted by older versions), their payload unchecked, for a migration \
        window; logged once per token
        """)
    public static let appJWTKey = ServeSetting(
        "app-jwt-key", .list, "ID=SECRET", secret: true,
        "also require the app's own bearer JWT (HS256, its `sub` the token's user); its secret may not be an action-token key's")
    public static let appJWTAudience = ServeSetting(
        "app-jwt-audience", .text, "AUD", default: { $0.appJWTAudience }, "the `aud` every app JWT must name")
    public static let forward = ServeSetting(
        "forward", .list, "PATTERN=URL",
        """
        seed an endpoint taking `category.action`, `category.*` or `*` (repeatable, also with one pattern and several URLs; \
        a response goes to every endpoint that takes it); more are created at runtime through `/v1/endpoints`; needs `--forward-secret`
        """)
    public static let forwardSecret = ServeSetting(
        "forward-secret", .text, "whsec_…", secret: true,
        "the Standard Webhooks secret signing deliveries to endpoints without a secret of their own, and `delivery.dead` events")
    public static let breakerFailures = ServeSetting(
        "breaker-failures", .integer, "N", default: { String($0.breaker.failures) },
        "failed attempts in a row after which an endpoint's circuit breaker opens: its deliveries are held, not retried")
    public static let breakerProbe = ServeSetting(
        "breaker-probe", .duration, "DURATION", default: { DurationText.text($0.breaker.probeEvery) },
        "how often an open breaker lets one delivery through as a probe; a success closes it")
    public static let opsEndpoint = ServeSetting(
        "ops-endpoint", .text, "URL",
        "POST a signed `delivery.dead` event here whenever a delivery goes dead (signed with `--forward-secret`)")
    public static let maxBodySize = ServeSetting(
        "max-body-size", .integer, "BYTES", default: { String($0.server.maximumBodySize) }, "the largest action response body")
    public static let maxInFlight = ServeSetting(
        "max-in-flight", .integer, "N", default: { String($0.server.maximumConcurrentAccepts) },
        "accepts in progress at once (counted once a body is read); past it, 429")
    public static let readTimeout = ServeSetting(
        "read-timeout", .duration, "DURATION", default: { DurationText.text($0.readTimeout) },
        "how long a request's header and body may take to arrive (a connection's first request from its opening); a slower connection is closed")
    public static let idleTimeout = ServeSetting(
        "idle-timeout", .duration, "DURATION", default: { DurationText.text($0.idleTimeout) }, "how long an idle keep-alive connection stays open")
    public static let maxConnections = ServeSetting(
        "max-connections", .integer, "N", default: { String($0.maximumConnections) },
        "connections open at once; past it, new ones wait in the listen backlog")
    public static let maxConnectionsPerAddress = ServeSetting(
        "max-connections-per-address", .integer, "N", default: { String($0.maximumConnectionsPerAddress) },
        "connections open at once from one peer address; past it, a new one is closed at once (0: no limit; behind a proxy, raise it)")
    public static let forwardTimeout = ServeSetting(
        "forward-timeout", .duration, "DURATION", default: { DurationText.text($0.forwardTimeout) },
        "how long one attempt to an endpoint, the ops endpoint or APNs may take, its answer's head and body together; a slower one is a failed attempt, retried"
    )
    public static let endpointConcurrency = ServeSetting(
        "endpoint-concurrency", .integer, "N", default: { String($0.endpointConcurrency) },
        "attempts in flight to one endpoint, refilled as each answers (a slow answer holds its own slot, never the others)")
    public static let shutdownGrace = ServeSetting(
        "shutdown-grace", .duration, "DURATION", default: { DurationText.text($0.shutdownGrace) },
        "how long SIGTERM waits for requests and attempts in flight; then they are cancelled (unfinished attempts are retried after a restart)")
    public static let maxDevicesPerUser = ServeSetting(
        "max-devices-per-user", .integer, "N", default: { String($0.server.deviceLimits.maximumActive) },
        "active devices one user may have; a registration past it unregisters the user's oldest (0: no limit)")
    public static let deviceRegistrationsPerHour = ServeSetting(
        "device-registrations-per-hour", .integer, "N", default: { String($0.server.deviceLimits.registrationsPerHour) },
        "new devices one user may register within an hour; past it, 429 with Retry-After (a device registering again is not counted; 0: no limit)")
    public static let otelEndpoint = ServeSetting(
        "otel-endpoint", .text, "URL",
        "send OpenTelemetry traces (OTLP/HTTP protobuf; `/v1/traces` is appended) to this collector: spans for each request, accept, storage commit, delivery attempt and APNs send, with `traceparent` read from requests and sent to endpoints; off by default"
    )
    public static let metricsAddress = ServeSetting(
        "metrics-address", .text, "HOST:PORT",
        """
        serve `GET /metrics` on a listener of its own, without credentials (bind it to loopback or a private network); on \
        the main listener `/metrics` needs the admin token
        """)
    public static let deliveryLease = ServeSetting(
        "delivery-lease", .integer, "SECONDS", default: { String($0.deliveryLease.components.seconds) },
        "how long a delivery's or a send's claim is held before another instance may take it over")
    public static let adminToken = ServeSetting(
        "admin-token", .text, "TOKEN", secret: true,
        """
        enables the operators' API (`GET /v1/actions/{id}`, `/v1/deliveries`, `/metrics`) and the `/admin` page; at least \
        32 bytes (`openssl rand -base64 32`)
        """)
    public static let adminSecureCookie = ServeSetting(
        "admin-secure-cookie", .toggle, "",
        "mark the admin page's cookie `Secure` (behind a proxy that terminates TLS; on by itself with `--tls-certificate`)")
    public static let retryFor = ServeSetting(
        "retry-for", .duration, "DURATION", default: { DurationText.text($0.retryPolicy.retryFor) },
        "how long a failing delivery is retried before it is dead")
    public static let retryFirstDelay = ServeSetting(
        "retry-first-delay", .duration, "DURATION", default: { DurationText.text($0.retryPolicy.firstDelay) }, "the backoff before the first retry")
    public static let retryMaxDelay = ServeSetting(
        "retry-max-delay", .duration, "DURATION", default: { DurationText.text($0.retryPolicy.maximumDelay) }, "the longest backoff between retries")
    public static let tlsCertificate = ServeSetting(
        "tls-certificate", .text, "PEM", "serve HTTPS (TLS 1.2 and 1.3) with this PEM certificate chain (with `--tls-key`)")
    public static let tlsKey = ServeSetting(
        "tls-key", .text, "PEM", secret: true, "the PEM private key of `--tls-certificate`")
    public static let backendToken = ServeSetting(
        "backend-token", .text, "TOKEN", secret: true, "the backend's bearer token for the badge endpoints; at least 32 bytes")
    public static let badgeLifetime = ServeSetting(
        "badge-lifetime", .duration, "DURATION", default: { DurationText.text($0.server.badgeLifetime) },
        "how long an unread notification counts on its user's badge (`90s`, `30m`, `12h`, `30d`)")
    public static let retention = ServeSetting(
        "retention", .duration, "DURATION", default: { DurationText.text($0.retention) },
        """
        how long delivered and dead responses and read or expired badge entries are kept; `0` keeps everything. Pending \
        responses are never deleted, and a response stays while its action token could still pass (so a replay meets its answer)
        """)
    public static let apnsKeyFile = ServeSetting(
        "apns-key-file", .text, "P8",
        """
        send notifications to APNs (`POST /v1/send`) with this provider key (the `AuthKey_KID.p8` Apple issues); with \
        `--apns-key-id`, `--apns-team-id` and `--apns-topic`
        """)
    public static let apnsKeyID = ServeSetting("apns-key-id", .text, "KID", "the provider key's id (the `kid` of each provider token)")
    public static let apnsTeamID = ServeSetting("apns-team-id", .text, "TEAM", "the Apple developer team id (the provider token's `iss`)")
    public static let apnsTopic = ServeSetting("apns-topic", .text, "BUNDLE_ID", "the app's bundle id (`apns-topic`)")
    public static let apnsURL = ServeSetting(
        "apns-url", .text, "URL",
        "send to this base URL instead of Apple's hosts (which are picked per device's environment): a stand-in APNs")
    public static let apnsCAFile = ServeSetting(
        "apns-ca-file", .text, "PEM", "trust these PEM certificates for APNs instead of the system's (a stand-in's own)")
    public static let fcmServiceAccount = ServeSetting(
        "fcm-service-account", .text, "FILE",
        """
        send notifications to Android devices through FCM HTTP v1 (`POST /v1/send`) with this service account (the JSON file \
        Google issues: `project_id`, `private_key_id`, `private_key`, `client_email`, `token_uri`)
        """)
    public static let fcmURL = ServeSetting(
        "fcm-url", .text, "URL", "send to this base URL instead of `https://fcm.googleapis.com`: a stand-in FCM")
    public static let fcmCAFile = ServeSetting(
        "fcm-ca-file", .text, "PEM", "trust these PEM certificates for FCM and the token endpoint instead of the system's (a stand-in's own)")
    public static let apnsConnections = ServeSetting(
        "apns-connections", .integer, "N", default: { String($0.apnsConnections) },
        "long-lived HTTP/2 connections to each APNs host, requests spread across them")

    /// Every setting, in the order the docs list them.
    public static let all: [ServeSetting] = [
        categories, host, port, storage, storageTimeout, tokenKey, insecureDevelopmentKey, acceptUnboundPayloads, appJWTKey,
        appJWTAudience, forward, forwardSecret, breakerFailures, breakerProbe, opsEndpoint, maxBodySize, maxInFlight, readTimeout, idleTimeout,
        maxConnections, maxConnectionsPerAddress, forwardTimeout, endpointConcurrency, shutdownGrace,
        metricsAddress, otelEndpoint, deliveryLease, adminToken, adminSecureCookie, retryFor, retryFirstDelay, retryMaxDelay,
        tlsCertificate, tlsKey, backendToken, badgeLifetime, retention, apnsKeyFile, apnsKeyID, apnsTeamID, apnsTopic, apnsURL,
        apnsCAFile, apnsConnections, fcmServiceAccount, fcmURL, fcmCAFile, maxDevicesPerUser, deviceRegistrationsPerHour,
    ]

    /// The settings table of the docs (`docs/command-line.md`), rendered from ``all``.
    public static var markdownTable: String {
        var lines = ["| flag | default | meaning |", "| --- | --- | --- |"]
        for setting in all {
            let fallback: String
            switch (setting.kind, setting.defaultValue) {
            case (.toggle, _): fallback = "off"
            case (_, let value?): fallback = "`\(value)`"
            case (_, nil): fallback = "none"
            }
            lines.append("| `\(setting)` | \(fallback) | \(setting.help) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
