import ActionableCore
import ActionableStore
import ActionableTokens
import Hummingbird

/// Builds the HTTP router of `actionable serve`: `POST /v1/actions`, `GET /v1/categories`,
/// `GET /healthz`, `GET /readyz`, and, with an admin token, `GET /v1/actions/{id}`.
public enum ActionableServer {
    /// The router over `catalog` and `store`; `tokens` verifies action tokens (required unless
    /// `settings` turns them off).
    public static func router(
        catalog: Catalog, store: any ActionStore, tokens: ActionTokens?, settings: ServerSettings = ServerSettings()
    ) -> Router<ActionableRequestContext> {
        let router = Router(context: ActionableRequestContext.self)
        ActionsController(catalog: catalog, store: store, tokens: tokens, settings: settings).addRoutes(to: router)
        CatalogController(catalog: catalog).addRoutes(to: router)
        HealthController(store: store).addRoutes(to: router)
        if let adminToken = settings.adminToken {
            StatusController(store: store, adminToken: adminToken).addRoutes(to: router)
        }
        return router
    }
}
