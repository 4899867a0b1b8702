import ActionableCore
import ActionableStore
import ActionableTokens
import Foundation
import Hummingbird

/// Builds the HTTP router of `actionable serve`: `POST /v1/actions`, `GET /v1/categories`,
/// `GET /healthz`, `GET /readyz`, the badge ledger (`POST /v1/notifications`,
/// `POST /v1/badge/read`, `GET /v1/badge/{user}`), and, with an admin token, `GET /v1/actions/{id}`.
public enum ActionableServer {
    /// The router over `catalog` and `store`; `tokens` verifies action tokens (required unless
    /// `settings` turns them off).
    /// With `metrics`, requests are counted and timed, and `GET /metrics` serves `exposition`
    /// (the Prometheus text of the registry the metrics go to). With `appTokens`, every action
    /// response also needs the app's own bearer JWT, whose `sub` must be the action token's user.
    public static func router(
        catalog: Catalog, store: any ActionStore, tokens: ActionTokens?, settings: ServerSettings = ServerSettings(),
        metrics: ServerMetrics? = nil, exposition: (@Sendable () -> String)? = nil, appTokens: AppTokens? = nil
    ) -> Router<ActionableRequestContext> {
        // HEAD is answered wherever GET is; a known path with another method gets 405 and Allow.
        let router = Router(context: ActionableRequestContext.self, options: .autoGenerateHeadEndpoints)
        if let metrics { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
        let known = KnownRoutes()
        router.add(middleware: MethodNotAllowedMiddleware(known: known))
        let routes = RouteRecorder(router: router, known: known)
        if let exposition {
            routes.get("/metrics") { _, _ in
                // The ledger's total is counted when it is asked for, not on every write.
                if let metrics, let total = try? await store.unreadTotal(countingSince: Date().addingTimeInterval(-settings.badgeLifetime)) {
                    metrics.badgeUnread(total)
                }
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: exposition())))
            }
        }
        routes.addRoutes(
            ActionsController(
                catalog: catalog, store: store, tokens: tokens, settings: settings, appTokens: appTokens,
                metrics: metrics
            ).routes)
        routes.addRoutes(CatalogController(catalog: catalog).routes)
        routes.addRoutes(OpenAPIDocument.routes(catalog: catalog))
        routes.addRoutes(
            BadgeController(catalog: catalog, store: store, settings: settings, metrics: metrics)
                .routes(authenticator: BadgeAuthenticator(backendToken: settings.backendToken, appTokens: appTokens)))
        routes.addRoutes(HealthController(store: store, settings: settings).routes)
        if let adminToken = settings.adminToken {
            routes.addRoutes(StatusController(store: store, adminToken: adminToken, settings: settings).routes)
            // The templates are compiled into the binary; a template that does not parse is a
            // programming error caught by the tests, so the page is left out rather than the server.
            if let page = try? AdminPageController(catalog: catalog, store: store, adminToken: adminToken, settings: settings) {
                routes.addRoutes(page.routes)
            }
        }
        return router
    }
}
