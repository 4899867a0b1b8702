public import ActionableCore
public import ActionableStore
public import ActionableTokens
import Foundation
public import Hummingbird

/// Builds the HTTP router of `actionable serve`: `POST /v1/actions`, `GET /v1/categories`,
/// `GET /healthz`, `GET /readyz`, the badge ledger (`POST /v1/notifications`,
/// `POST /v1/badge/read`, `GET /v1/badge/{user}`), the devices (`POST /v1/devices`,
/// `DELETE /v1/devices/{token}`, `GET /v1/devices/{user}`), sending (`POST /v1/send`,
/// `GET /v1/notifications/{id}`), and, with an admin token, `GET /v1/actions/{id}`.
public enum ActionableRoutes {
    /// The router over `catalog` and `store`; `tokens` verifies action tokens (required unless
    /// `settings` turns them off).
    /// With `metrics`, requests are counted and timed, and `GET /metrics` serves `exposition`
    /// (the Prometheus text of the registry the metrics go to) to callers with the admin token
    /// (401 for anyone else, and for everyone when there is no admin token). With `appTokens`, every action
    /// response also needs the app's own bearer JWT, whose `sub` must be the action token's user.
    public static func router(
        catalog: Catalog, store: any ActionStore, tokens: ActionTokens?, settings: ServerSettings = ServerSettings(),
        metrics: ServerMetrics? = nil, exposition: (@Sendable () -> String)? = nil, appTokens: AppTokens? = nil,
        sendSignal: OutboxSignal? = nil, fcmSignal: OutboxSignal? = nil, deliverySignal: OutboxSignal? = nil
    ) -> Router<ActionableRequestContext> {
        router(
            catalog: catalog, storage: StorageGate(open: store), tokens: tokens, settings: settings, metrics: metrics,
            exposition: exposition, appTokens: appTokens, sendSignal: sendSignal, fcmSignal: fcmSignal, deliverySignal: deliverySignal)
    }

    /// The router over `catalog` and the store behind `storage`: until the gate opens, the
    /// routes that need storage answer 503 with the reason, and `/readyz` says it is not ready.
    /// With `sendSignal` (APNs) or `fcmSignal` (FCM), the server sends notifications to iOS or
    /// Android devices (`POST /v1/send` records them and wakes the transport waiting on the
    /// platform's signal), and a tap on one it sent forwards the payload it recorded.
    /// With `deliverySignal`, each accepted response wakes the workers that deliver it.
    public static func router(
        catalog: Catalog, storage: StorageGate, tokens: ActionTokens?, settings: ServerSettings = ServerSettings(),
        metrics: ServerMetrics? = nil, exposition: (@Sendable () -> String)? = nil, appTokens: AppTokens? = nil,
        sendSignal: OutboxSignal? = nil, fcmSignal: OutboxSignal? = nil, deliverySignal: OutboxSignal? = nil
    ) -> Router<ActionableRequestContext> {
        router(
            catalog: LiveCatalog(catalog), storage: storage, tokens: tokens, settings: settings, metrics: metrics,
            exposition: exposition, appTokens: appTokens, sendSignal: sendSignal, fcmSignal: fcmSignal, deliverySignal: deliverySignal)
    }

    /// The router over the catalog `live` serves (swapped whole when it reloads: each request
    /// sees one catalog) and the store behind `storage`; otherwise as the router over a catalog
    /// that never changes.
    ///
    /// With `activity`, each accepted tap is counted for the admin page's charts (by minute, and
    /// by category and action), and the page draws them from storage.
    public static func router(
        catalog live: LiveCatalog, storage: StorageGate, tokens: ActionTokens?, settings: ServerSettings = ServerSettings(),
        metrics: ServerMetrics? = nil, exposition: (@Sendable () -> String)? = nil, appTokens: AppTokens? = nil,
        sendSignal: OutboxSignal? = nil, fcmSignal: OutboxSignal? = nil, deliverySignal: OutboxSignal? = nil,
        activity: ActivityLog? = nil
    ) -> Router<ActionableRequestContext> {
        let (router, routes) = makeRouter(metrics: metrics, tracing: settings.tracing)
        if let exposition {
            // Behind the admin token here; `metricsRouter` serves it openly on its own listener.
            routes.addRoutes(
                MetricsController(exposition: exposition, metrics: metrics, storage: storage, settings: settings)
                    .routes(access: settings.adminToken.map { .adminToken($0) } ?? .closed))
        }
        routes.addRoutes(
            ActionsController(
                live: live, storage: storage, tokens: tokens, settings: settings, appTokens: appTokens,
                metrics: metrics, readsSentPayloads: sendSignal != nil || fcmSignal != nil, deliverySignal: deliverySignal,
                activity: activity
            ).routes)
        routes.addRoutes(CatalogController(live: live).routes)
        routes.addRoutes(OpenAPIDocument.routes(live: live))
        routes.addRoutes(
            BadgeController(live: live, storage: storage, settings: settings, metrics: metrics)
                .routes(authenticator: BackendOrAppAuthenticator(backendToken: settings.backendToken, appTokens: appTokens)))
        routes.addRoutes(
            DevicesController(storage: storage, settings: settings)
                .routes(authenticator: BackendOrAppAuthenticator(backendToken: settings.backendToken, appTokens: appTokens)))
        routes.addRoutes(
            SendController(live: live, storage: storage, tokens: tokens, settings: settings, signal: sendSignal, fcmSignal: fcmSignal)
                .routes(authenticator: BackendOrAppAuthenticator(backendToken: settings.backendToken, appTokens: appTokens)))
        routes.addRoutes(HealthController(storage: storage, settings: settings).routes)
        if let adminToken = settings.adminToken {
            routes.addRoutes(StatusController(storage: storage, live: live, adminToken: adminToken, settings: settings).routes)
            // The templates are compiled into the binary; a template that does not parse is a
            // programming error caught by the tests, so the page is left out rather than the server.
            if let page = try? AdminPageController(live: live, storage: storage, adminToken: adminToken, settings: settings, activity: activity) {
                routes.addRoutes(page.routes)
            }
        }
        return router
    }

    /// The router of the separate metrics listener (`--metrics-address`): `GET /metrics` only,
    /// without credentials — bind it to loopback or a private network.
    public static func metricsRouter(
        storage: StorageGate, settings: ServerSettings, metrics: ServerMetrics?, exposition: @escaping @Sendable () -> String
    ) -> Router<ActionableRequestContext> {
        let (router, routes) = makeRouter(metrics: nil)
        routes.addRoutes(MetricsController(exposition: exposition, metrics: metrics, storage: storage, settings: settings).routes(access: .open))
        return router
    }

    /// A router with what every listener has: a server span per request with `tracing` (outermost,
    /// so it records the status the client gets), errors as problem documents, requests counted
    /// with `metrics`, HEAD wherever GET, and 405 with `Allow` for a known path's other methods
    /// (the recorder notes each route added through it).
    private static func makeRouter(
        metrics: ServerMetrics?, tracing: Bool = false
    ) -> (Router<ActionableRequestContext>, RouteRecorder<ActionableRequestContext>) {
        let router = Router(context: ActionableRequestContext.self, options: .autoGenerateHeadEndpoints)
        if tracing { router.add(middleware: TracingMiddleware()) }
        router.add(middleware: ProblemMiddleware())
        if let metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
        let known = KnownRoutes()
        router.add(middleware: MethodNotAllowedMiddleware(known: known))
        return (router, RouteRecorder(router: router, known: known))
    }
}
