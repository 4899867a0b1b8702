import ActionableAPNs
public import ActionableCore
import ActionableDelivery
import ActionableFCM
import ActionableHTTP
import ActionableLint
public import ActionableRouter
public import ActionableStore
import ActionableTokens
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import Prometheus
public import ServiceLifecycle
public import UnixSignals

/// The whole running server — HTTP application, storage, delivery worker and metrics — built
/// from one ``ActionableConfiguration``, as a swift-service-lifecycle `Service`.
///
/// `actionable serve` is this service with its configuration read from flags; a Swift backend
/// embeds the same thing and may add delivery handlers of its own:
///
/// ```swift
/// let service = try await ActionableService(configuration: configuration, logger: logger) { routes in
///     routes.on("invite", "accept") { response, context in
///         try await invitations.accept(response.payload, idempotencyKey: context.responseID)
///         return .done
///     }
/// }
/// try await service.runService()  // or add it to your own ServiceGroup
/// ```
///
/// Start-up tells the truth: the HTTP listener comes up first, `/healthz` answers 200 at once,
/// and `/readyz` (and every accept) answers 503 with the reason until storage is reachable and
/// migrated; see ``ActionableConfiguration/storageTimeout``.
public struct ActionableService: Service {
    /// The configuration the service was built from.
    public let configuration: ActionableConfiguration
    /// The catalog it serves now (``reloadCategories()`` and `SIGHUP` may swap it).
    public var catalog: Catalog { live.catalog }
    /// The catalog served, swapped whole by a reload.
    let live: LiveCatalog
    private let application: any Service
    private let metricsApplication: (any Service)?
    private let storage: StorageGate
    private let opener: StorageOpener
    /// The in-process handlers deliveries run through, checked at start-up; `nil` when there are
    /// none (responses then go to the endpoints that take them).
    private let deliveries: ActionRouter?
    let metricsFactory: PrometheusMetricsFactory
    let logger: Logger
    /// The APNs client and the signal that wakes its worker, when the server sends.
    private let sending: (client: APNsClient, signal: OutboxSignal)?
    /// The FCM client and the signal that wakes its transport, when the server sends to Android.
    private let fcmSending: (client: FCMClient, signal: OutboxSignal)?
    /// Woken by each accepted response: the endpoints' worker claims it at once.
    private let deliverySignal: OutboxSignal
    /// What this instance counted for the admin page's charts and has not yet added to storage.
    let activity: ActivityLog
    /// The exporter of spans, with ``ActionableConfiguration/otelEndpoint``.
    private let tracing: (any Service)?

    /// Builds the service; nothing listens or connects until ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: the settings; checked here (``ConfigurationError``).
    ///   - catalog: the categories; loaded from ``ActionableConfiguration/categories`` when `nil`
    ///     (a catalog with lint errors is refused with `CatalogRefused`).
    ///   - storageDrivers: the drivers by URL scheme (`StorageDriverRegistry.standard`).
    ///   - logger: where the service logs.
    ///   - onServerRunning: called with the bound port once the listener is up (useful with port 0).
    ///   - routes: delivery handlers in this process; a response one of them takes is not fanned
    ///     out to the endpoints.
    public init(
        configuration: ActionableConfiguration, catalog: Catalog? = nil,
        storageDrivers: StorageDriverRegistry = .standard, logger: Logger,
        onServerRunning: (@Sendable (Int) async -> Void)? = nil,
        routes: ((inout RouterBuilder) throws -> Void)? = nil
    ) async throws {
        try configuration.validate()
        // First: every span from here on (and every HTTP client made after) uses the tracer.
        let tracing = try configuration.otelEndpoint.map { try Self.tracingService(endpoint: $0, logger: logger) }
        // Read from the files unless given: then `SIGHUP` and the admin page read them again.
        let files = try catalog == nil ? Linter().checkedFiles(at: configuration.categories) : nil
        let catalog = catalog ?? Catalog((files ?? []).compactMap(\.category))
        _ = try storageDrivers.parse(configuration.storage)
        let keys = try DevelopmentKey.keys(configuration.tokenKeys, directory: configuration.developmentKeyDirectory) {
            logger.warning("\($0)")
        }
        if configuration.appJWTKeys.contains(where: { app in keys.contains { $0.hasSameSecret(as: app) } }) {
            throw ConfigurationError("an app JWT key has the secret of the development token key; give --app-jwt-key a secret of its own")
        }
        let tokens = try await ActionTokens(keys: keys)
        let appTokens =
            configuration.appJWTKeys.isEmpty
            ? nil : await AppTokens(keys: configuration.appJWTKeys, audience: configuration.appJWTAudience)

        let redacted = StorageURL.redacted(configuration.storage)
        let storage = StorageGate(reason: "storage \(redacted) is being opened")
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        let metrics = ServerMetrics(factory: factory)
        Self.exportCountersAtZero(factory, sendsToAPNs: configuration.apns != nil, sendsToFCM: configuration.fcm != nil)
        let live = LiveCatalog(
            catalog, loader: files.map { Self.catalogLoader(directory: configuration.categories, served: $0) },
            onReload: Self.reloadObserver(directory: configuration.categories, factory: factory, logger: logger))
        let sending = try await configuration.apns.asyncMap { settings throws(ConfigurationError) in
            (
                client: try await Self.apnsClient(
                    settings, connections: configuration.apnsConnections, timeout: configuration.apnsTimeout, logger: logger),
                signal: OutboxSignal()
            )
        }
        let fcmSending = try await configuration.fcm.asyncMap { settings throws(ConfigurationError) in
            (client: try await Self.fcmClient(settings, timeout: configuration.fcmTimeout, logger: logger), signal: OutboxSignal())
        }
        var settings = configuration.server
        settings.tracing = tracing != nil
        let deliverySignal = OutboxSignal()
        let activity = ActivityLog()
        let router = ActionableRoutes.router(
            catalog: live, storage: storage, tokens: tokens, settings: settings,
            metrics: metrics, exposition: { registry.emitToString() }, appTokens: appTokens, sendSignal: sending?.signal,
            fcmSignal: fcmSending?.signal,
            deliverySignal: deliverySignal, activity: activity)

        let deliveries = try Self.deliveryRouter(configuration: configuration, catalog: catalog, routes: routes)

        let server = try Self.serverBuilder(configuration)
        self.application = Application(
            router: router, server: server,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections, logger: logger)),
            onServerRunning: { channel in await onServerRunning?(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        if let address = configuration.metricsAddress {
            self.metricsApplication = Application(
                router: ActionableRoutes.metricsRouter(
                    storage: storage, settings: configuration.server, metrics: metrics, exposition: { registry.emitToString() }),
                // The same limits as the main listener: read deadline, connections, per address.
                server: .http1(
                    configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout)), readTimeout: TimeAmount(configuration.readTimeout),
                    perAddress: configuration.maximumConnectionsPerAddress),
                configuration: .init(
                    address: .hostname(address.host, port: address.port),
                    availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections, logger: logger)),
                onServerRunning: { channel in
                    logger.info("metrics on http://\(address.host):\(channel.localAddress?.port ?? address.port)/metrics")
                },
                logger: logger)
        } else {
            self.metricsApplication = nil
        }
        self.configuration = configuration
        self.live = live
        self.storage = storage
        self.opener = StorageOpener(
            url: configuration.storage, drivers: storageDrivers, timeout: configuration.storageTimeout, logger: logger)
        self.deliveries = deliveries
        self.sending = sending
        self.fcmSending = fcmSending
        self.deliverySignal = deliverySignal
        self.activity = activity
        self.tracing = tracing
        self.metricsFactory = factory
        self.logger = logger
        logger.info("serving \(catalog.categories.count) categories from \(configuration.categories), storage \(redacted)")
    }

    /// Serves until cancelled or told to shut down gracefully: the listener first, storage
    /// opened beside it, then deliveries. Throws ``StorageTimeout`` when storage stayed out of
    /// reach for longer than the configured timeout.
    public func run() async throws {
        let logger = self.logger
        let grace = configuration.shutdownGrace
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await application.run() }
                if let metricsApplication { group.addTask { try await metricsApplication.run() } }
                // On graceful shutdown it exports the spans it holds, then returns.
                if let tracing { group.addTask { try await tracing.run() } }
                group.addTask { try await self.openStorageThenDeliver() }
                group.addTask { await self.reloadOnHangUp() }
            }
        } onGracefulShutdown: {
            // A signal (SIGTERM, SIGINT) or the owning group asked: an operator reading the log
            // sees the stop begin here and end with "stopped" below.
            logger.notice(
                "shutting down: no new connections; requests, deliveries and sends in flight finish within the grace of \(grace)")
        }
        logger.notice("stopped")
    }

    /// HTTP/1.1 (over TLS 1.2+ with ``ActionableConfiguration/tls``) with the configured idle
    /// timeout and a read deadline per request (``RequestReadDeadline``).
    static func serverBuilder(_ configuration: ActionableConfiguration) throws -> HTTPServerBuilder {
        let http1 = HTTPServerBuilder.http1(
            configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout)), readTimeout: TimeAmount(configuration.readTimeout),
            perAddress: configuration.maximumConnectionsPerAddress)
        guard let tls = configuration.tls else { return http1 }
        return try .tls(http1, tlsConfiguration: tlsConfiguration(tls))
    }

    /// Returns once storage is open and the service accepts action responses (the listener may
    /// have come up before; see ``init(configuration:catalog:storageDrivers:logger:onServerRunning:routes:)``).
    public func waitUntilReady() async { await storage.waitUntilOpen() }

    /// Runs the service in a `ServiceGroup` of its own that shuts down gracefully on SIGTERM
    /// and SIGINT: requests in flight finish, deliveries in flight are recorded, then it returns.
    public func runService(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        var configuration = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: gracefulShutdownSignals, logger: logger)
        // Whatever upstreams do, SIGTERM ends within the grace: what is still running is then
        // cancelled (an unfinished attempt's lease runs out and it is retried after the restart),
        // and what ignores cancellation for 5 s more ends the process.
        configuration.maximumGracefulShutdownDuration = self.configuration.shutdownGrace
        configuration.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: configuration).run()
    }

    private func openStorageThenDeliver() async throws {
        let store: any ActionStore
        do {
            store = try await cancelWhenGracefulShutdown { try await opener.open(into: storage) }
        } catch is CancellationError {
            return  // shut down before storage was reachable
        }
        logger.info("ready: storage \(StorageURL.redacted(configuration.storage)) is open, accepting action responses")
        // The workers run over the opened store itself; only the routes go through the gate.
        do {
            try await Self.seedEndpoints(configuration.forwards, into: store, at: Date(), logger: logger)
        } catch {
            logger.error("the --forward endpoints could not be stored; they are tried again at the next start", metadata: ["error": "\(error)"])
        }
        let known = (try? await store.endpoints()) ?? []
        if configuration.forwards.isEmpty && deliveries == nil && known.isEmpty {
            logger.warning(
                "no endpoint, forward or handler yet: accepted responses are stored and wait for an endpoint (POST /v1/endpoints)")
        }
        // A tap's deliveries are written in the commit that accepts it (an in-process handler
        // keeps what it takes); the delivery worker is left what no endpoint took.
        let router = deliveries
        await store.fanOutAtAccept(
            AcceptFanOut(handledInProcess: { category, action in router?.handles(category: category, action: action) == true }))
        let worker = OutboxLoop(handlerTransport(over: store, router: deliveries))
        let endpointWorker: EndpointWorker
        let ops: OpsEvents?
        do {
            ops = try opsEvents()
            endpointWorker = try self.endpointWorker(over: store, ops: ops)
        } catch {
            throw ConfigurationError("\(error)")
        }
        let retention = retentionWorker(over: store)
        let sender = sending.map { (worker: OutboxLoop(apnsTransport(over: store, client: $0.client)), signal: $0.signal) }
        if let sending, let keyID = configuration.apns?.keyID {
            // Every instance, and this one after a restart, sends with the one token storage holds.
            let logger = self.logger
            await sending.client.token.share(
                through: { candidate, issuedAt, reuseIfIssuedAfter in
                    let shared = try await store.shareProviderToken(
                        keyID: keyID, candidate: candidate, issuedAt: issuedAt, reuseIfIssuedAfter: reuseIfIssuedAfter)
                    return (shared.token, shared.issuedAt)
                },
                onFailure: { error in
                    logger.warning(
                        "the provider token could not be shared through storage; sending with this instance's own", metadata: ["error": "\(error)"])
                })
        }
        // How often the workers look for due work with nothing waking them: 200 ms on storage one
        // instance owns; seconds on PostgreSQL, where instances wake each other (LISTEN/NOTIFY).
        let idle = store.pollFallback
        let handlerSignal = OutboxSignal()
        let hasRoutes = deliveries != nil
        await withDiscardingTaskGroup { group in
            if let wakeUps = store.wakeUps {
                // Another instance made work due here: every worker claims at once.
                let signals = [deliverySignal, handlerSignal] + [sender?.signal, fcmSending?.signal].compactMap { $0 }
                group.addTask {
                    await cancelWhenGracefulShutdown {
                        for await _ in wakeUps { for signal in signals { signal.signal() } }
                    }
                }
            }
            // Retention stops between two batches on graceful shutdown.
            group.addTask { await cancelWhenGracefulShutdown { await retention.run() } }
            // On graceful shutdown the workers claim nothing more; deliveries in flight finish
            // (each within the forwarder's timeout) and are recorded.
            group.addTask {
                await cancelWhenGracefulShutdown { await worker.run(wake: { limit in await handlerSignal.wait(upTo: limit) }, idle: idle) }
            }
            group.addTask {
                let signal = deliverySignal
                await cancelWhenGracefulShutdown {
                    await endpointWorker.run(
                        wake: { limit in
                            let keys = await signal.wake(upTo: limit)
                            // An in-process handler may take what was accepted.
                            if hasRoutes { handlerSignal.signal() }
                            return keys
                        }, idle: idle)
                }
                ops?.finish()  // the last dead deliveries are reported, within the shutdown grace
            }
            if let ops { group.addTask { await ops.run() } }
            group.addTask { await cancelWhenGracefulShutdown { await self.flushActivityEvery(Self.activityFlushInterval, into: store) } }
            if let sender {
                // On graceful shutdown it claims nothing more; sends in flight get their answers
                // and are recorded, then the connections close.
                group.addTask {
                    let signal = sender.signal
                    await cancelWhenGracefulShutdown {
                        await sender.worker.run(wake: { limit in await signal.wait(upTo: limit) }, idle: max(idle, .milliseconds(500)))
                    }
                    try? await sender.worker.transport.client.shutdown()
                }
            }
            if let fcmSending {
                // The same loop over the Android devices' copies, through FCM.
                let transport = OutboxLoop(fcmTransport(over: store, client: fcmSending.client))
                group.addTask {
                    let signal = fcmSending.signal
                    await cancelWhenGracefulShutdown {
                        await transport.run(wake: { limit in await signal.wait(upTo: limit) }, idle: max(idle, .milliseconds(500)))
                    }
                    try? await fcmSending.client.shutdown()
                }
            }
        }
        // What the workers counted up to their last outcome.
        await flushActivity(into: store)
    }

    /// The in-process handlers' transport over the opened `store` (which also hands the
    /// responses no handler takes to the endpoints).
    private func handlerTransport(over store: any ActionStore, router: ActionRouter?) -> HandlerTransport {
        var transport = HandlerTransport(
            store: store, router: router, policy: configuration.retryPolicy, owner: "handlers-\(UUID().uuidString.prefix(8))",
            lease: configuration.deliveryLease.timeInterval, logger: logger)
        transport.endpoints = store
        transport.metricsFactory = metricsFactory
        transport.activity = activity
        return transport
    }

    /// The retention worker over the opened `store`.
    private func retentionWorker(over store: any ActionStore) -> RetentionWorker {
        var retention = RetentionWorker(
            store: store, retention: configuration.retention, badgeLifetime: .seconds(configuration.server.badgeLifetime),
            logger: logger)
        retention.metricsFactory = metricsFactory
        return retention
    }
}
