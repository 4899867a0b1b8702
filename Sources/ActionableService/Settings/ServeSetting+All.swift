import ActionableCore
import ActionableDelivery
import ActionableHTTP
import ActionableStore
import ActionableTokens
import Foundation

/// Every setting of `actionable serve`, each declared once (``ServeSetting``). To add one, declare
/// it here — key, property, bounds, help — and list it in ``all``; the command line, the
/// environment, the JSON file, the bounds check and the docs' table follow.
extension ServeSetting {
    private static let day: TimeInterval = 86400
    private static let hour: TimeInterval = 3600

    public static let categories = text("categories", \.categories, "DIR", "the catalog served; one with lint errors is refused (exit 1)")
    public static let host = text("host", \.host, "HOST", "the address to listen on")
    public static let port = integer("port", \.port, "PORT", in: 0...65535, "the port to listen on; 0 picks a free one (the log names it)")
    public static let storage = text(
        "storage", \.storage, "URL", secret: true,
        """
        `sqlite:PATH`, `postgres://user:password@host:port/database[?sslmode=…&schema=…]`, or `memory:` (nothing kept). \
        Without `sslmode`, a PostgreSQL host other than loopback gets `verify-full` (certificate and name checked); write \
        `sslmode=require`, `prefer` or `disable` to weaken it
        """)
    public static let storageTimeout = duration(
        "storage-timeout", \.storageTimeout, in: 1...day,
        "give up with exit 1 when storage is not reachable within this time; without it, `serve` keeps trying and `/readyz` answers 503")
    public static let tokenKey = list(
        "token-key", \.tokenKeys, "ID=SECRET", secret: true,
        """
        keys verifying action tokens (repeatable; the first signs). Without one, a development key is created under \
        `.actionable/`, and it is refused on an address other than loopback
        """, parse: ActionTokenKey.parsingSetting)
    public static let insecureDevelopmentKey = toggle(
        "insecure-development-key", \.insecureDevelopmentKey, "allow the development key beyond loopback (a throwaway test server only)")
    public static let acceptUnboundPayloads = toggle(
        "accept-unbound-payloads", \.server.acceptUnboundPayloads,
        """
        accept action tokens without a `pld` claim (minted by older versions), their payload unchecked, for a migration \
        window; logged once per token
        """)
    public static let appJWTKey = list(
        "app-jwt-key", \.appJWTKeys, "ID=SECRET", secret: true,
        "also require the app's own bearer JWT (HS256, its `sub` the token's user); its secret may not be an action-token key's",
        parse: ActionTokenKey.parsingSetting)
    public static let appJWTAudience = text("app-jwt-audience", \.appJWTAudience, "AUD", "the `aud` every app JWT must name")
    public static let forward = list(
        "forward", \.forwards, "PATTERN=URL",
        """
        seed an endpoint taking `category.action`, `category.*` or `*` (repeatable, also with one pattern and several URLs; \
        a response goes to every endpoint that takes it); more are created at runtime through `/v1/endpoints`; needs `--forward-secret`
        """, parse: { text throws(ConfigurationError) in try ForwardRoute(parsing: text) })
    public static let forwardSecret = text(
        "forward-secret", \.forwardSecret, "whsec_…", secret: true,
        "the Standard Webhooks secret signing deliveries to endpoints without a secret of their own, and `delivery.dead` events")
    public static let breakerFailures = integer(
        "breaker-failures", \.breaker.failures, in: 1...Int.max,
        "failed attempts in a row after which an endpoint's circuit breaker opens: its deliveries are held, not retried")
    public static let breakerProbe = duration(
        "breaker-probe", \.breaker.probeEvery, in: 1...day, "how often an open breaker lets one delivery through as a probe; a success closes it")
    public static let opsEndpoint = text(
        "ops-endpoint", \.opsEndpoint, "URL",
        "POST a signed `delivery.dead` event here whenever a delivery goes dead (signed with `--forward-secret`)")
    public static let maxBodySize = integer(
        "max-body-size", \.server.maximumBodySize, "BYTES", in: 1...Int.max, "the largest action response body")
    public static let maxInFlight = integer(
        "max-in-flight", \.server.maximumConcurrentAccepts, in: 1...Int.max,
        "accepts in progress at once (counted once a body is read); past it, 429")
    public static let readTimeout = duration(
        "read-timeout", \.readTimeout, in: 1...day,
        "how long a request's header and body may take to arrive (a connection's first request from its opening); a slower connection is closed")
    public static let idleTimeout = duration(
        "idle-timeout", \.idleTimeout, in: 1...day, "how long an idle keep-alive connection stays open")
    public static let maxConnections = integer(
        "max-connections", \.maximumConnections, in: 1...Int.max, "connections open at once; past it, new ones wait in the listen backlog")
    public static let maxConnectionsPerAddress = integer(
        "max-connections-per-address", \.maximumConnectionsPerAddress, in: 1...Int.max, zero: "no limit",
        "connections open at once from one peer address; past it, a new one is closed at once (0: no limit; behind a proxy, raise it)")
    public static let forwardTimeout = duration(
        "forward-timeout", \.forwardTimeout, in: 1...hour,
        "how long one attempt to an endpoint or the ops endpoint may take, its answer's head and body together; a slower one is a failed attempt, retried"
    )
    public static let endpointConcurrency = integer(
        "endpoint-concurrency", \.endpointConcurrency, in: 1...4096,
        "attempts in flight to one endpoint, refilled as each answers (a slow answer holds its own slot, never the others)")
    public static let shutdownGrace = duration(
        "shutdown-grace", \.shutdownGrace, in: 1...hour,
        "how long SIGTERM waits for requests and attempts in flight; then they are cancelled (unfinished attempts are retried after a restart)")
    public static let maxDevicesPerUser = integer(
        "max-devices-per-user", \.server.deviceLimits.maximumActive, in: 1...Int.max, zero: "no limit",
        "active devices one user may have; a registration past it unregisters the user's oldest (0: no limit)")
    public static let deviceRegistrationsPerHour = integer(
        "device-registrations-per-hour", \.server.deviceLimits.registrationsPerHour, in: 1...Int.max, zero: "no limit",
        "new devices one user may register within an hour; past it, 429 with Retry-After (a device registering again is not counted; 0: no limit)")
    public static let otelEndpoint = text(
        "otel-endpoint", \.otelEndpoint, "URL",
        "send OpenTelemetry traces (OTLP/HTTP protobuf; `/v1/traces` is appended) to this collector: spans for each request, accept, storage commit, delivery attempt and APNs or FCM copy, with `traceparent` read from requests and sent to endpoints; off by default"
    )
    public static let metricsAddress = text(
        "metrics-address", \.metricsAddress, "HOST:PORT",
        """
        serve `GET /metrics` on a listener of its own, without credentials (bind it to loopback or a private network); on \
        the main listener `/metrics` needs the admin token
        """, parse: { text throws(ConfigurationError) in try ActionableConfiguration.ListenAddress(parsing: text) })
    public static let deliveryLease = duration(
        "delivery-lease", \.deliveryLease, in: 1...day, "how long a claim on a delivery or a copy is held before another instance may take it over")
    public static let adminToken = text(
        "admin-token", \.server.adminToken, "TOKEN", secret: true,
        """
        enables the operators' API (`GET /v1/actions/{id}`, `/v1/deliveries`, `/metrics`) and the `/admin` page; at least \
        32 bytes (`openssl rand -base64 32`)
        """)
    public static let adminSecureCookie = toggle(
        "admin-secure-cookie", \.server.secureAdminCookie,
        "mark the admin page's cookie `Secure` (behind a proxy that terminates TLS; on by itself with `--tls-certificate`)")
    public static let retryFor = duration(
        "retry-for", \.retryPolicy.retryFor, in: 1...(365 * day), "how long a failing delivery is retried before it is dead")
    public static let retryFirstDelay = duration(
        "retry-first-delay", \.retryPolicy.firstDelay, in: 0.001...day, "the backoff before the first retry")
    public static let retryMaxDelay = duration(
        "retry-max-delay", \.retryPolicy.maximumDelay, in: 0.001...(30 * day), "the longest backoff between retries")
    public static let tlsCertificate = text(
        "tls-certificate", \.tlsCertificate, "PEM", "serve HTTPS (TLS 1.2 and 1.3) with this PEM certificate chain (with `--tls-key`)")
    public static let tlsKey = text("tls-key", \.tlsKey, "PEM", secret: true, "the PEM private key of `--tls-certificate`")
    public static let backendToken = text(
        "backend-token", \.server.backendToken, "TOKEN", secret: true, "the backend's bearer token for the badge endpoints; at least 32 bytes")
    public static let badgeLifetime = duration(
        "badge-lifetime", \.server.badgeLifetime, in: 1...(365 * day),
        "how long an unread notification counts on its user's badge (`90s`, `30m`, `12h`, `30d`)")
    public static let retention = duration(
        "retention", \.retention, in: 1...(100 * 365 * day), zero: "keep everything",
        """
        how long delivered and dead responses and read or expired badge entries are kept; `0` keeps everything. Pending \
        responses are never deleted, and a response stays while its action token could still pass (so a replay meets its answer)
        """)
    public static let apnsKeyFile = text(
        "apns-key-file", \.apnsGroup.keyFile, "P8",
        """
        send notifications to APNs (`POST /v1/send`) with this provider key (the `AuthKey_KID.p8` Apple issues); with \
        `--apns-key-id`, `--apns-team-id` and `--apns-topic`
        """)
    public static let apnsKeyID = text("apns-key-id", \.apnsGroup.keyID, "KID", "the provider key's id (the `kid` of each provider token)")
    public static let apnsTeamID = text("apns-team-id", \.apnsGroup.teamID, "TEAM", "the Apple developer team id (the provider token's `iss`)")
    public static let apnsTopic = text("apns-topic", \.apnsGroup.topic, "BUNDLE_ID", "the app's bundle id (`apns-topic`)")
    public static let apnsURL = text(
        "apns-url", \.apnsGroup.url, "URL",
        "send to this base URL instead of Apple's hosts (which are picked per device's environment): a stand-in APNs")
    public static let apnsCAFile = text(
        "apns-ca-file", \.apnsGroup.caFile, "PEM", "trust these PEM certificates for APNs instead of the system's (a stand-in's own)")
    public static let apnsConnections = integer(
        "apns-connections", \.apnsConnections, in: 1...64, "long-lived HTTP/2 connections to each APNs host, requests spread across them")
    public static let apnsTimeout = duration(
        "apns-timeout", \.apnsTimeout, in: 1...hour,
        "how long one attempt of a copy at APNs may take, Apple's answer included; a slower one is a failed attempt, retried")
    public static let fcmServiceAccount = text(
        "fcm-service-account", \.fcmGroup.serviceAccountFile, "FILE",
        """
        send notifications to Android devices through FCM HTTP v1 (`POST /v1/send`) with this service account (the JSON file \
        Google issues: `project_id`, `private_key_id`, `private_key`, `client_email`, `token_uri`)
        """)
    public static let fcmURL = text(
        "fcm-url", \.fcmGroup.url, "URL", "send to this base URL instead of `https://fcm.googleapis.com`: a stand-in FCM")
    public static let fcmCAFile = text(
        "fcm-ca-file", \.fcmGroup.caFile, "PEM",
        "trust these PEM certificates for FCM and the token endpoint instead of the system's (a stand-in's own)")
    public static let fcmTimeout = duration(
        "fcm-timeout", \.fcmTimeout, in: 1...hour,
        "how long one attempt of a copy at FCM may take (an access token's exchange too); a slower one is a failed attempt, retried")

    /// Every setting, in the order the docs list them.
    public static let all: [ServeSetting] = [
        categories, host, port, storage, storageTimeout, tokenKey, insecureDevelopmentKey, acceptUnboundPayloads, appJWTKey,
        appJWTAudience, forward, forwardSecret, breakerFailures, breakerProbe, opsEndpoint, maxBodySize, maxInFlight, readTimeout, idleTimeout,
        maxConnections, maxConnectionsPerAddress, forwardTimeout, endpointConcurrency, shutdownGrace,
        metricsAddress, otelEndpoint, deliveryLease, adminToken, adminSecureCookie, retryFor, retryFirstDelay, retryMaxDelay,
        tlsCertificate, tlsKey, backendToken, badgeLifetime, retention, apnsKeyFile, apnsKeyID, apnsTeamID, apnsTopic, apnsURL,
        apnsCAFile, apnsConnections, apnsTimeout, fcmServiceAccount, fcmURL, fcmCAFile, fcmTimeout, maxDevicesPerUser,
        deviceRegistrationsPerHour,
    ]

    /// The settings table of the docs (`docs/command-line.md`), rendered from ``all``.
    package static var markdownTable: String {
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

extension ActionTokenKey {
    /// `ID=SECRET`, with the key's own error as a configuration error.
    static func parsingSetting(_ text: String) throws(ConfigurationError) -> ActionTokenKey {
        do {
            return try ActionTokenKey(parsing: text)
        } catch {
            throw ConfigurationError("\(error)")
        }
    }
}
