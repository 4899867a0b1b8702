import ActionableCore
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// `GET /v1/actions/{id}`: where a response's delivery stands, for operators (pending, delivered
/// or dead, attempts, the last error). Behind ``AdminTokenAuthenticator``.
struct StatusController: Sendable {
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionStore {
        get throws(StorageNotReady) { try storage.store() }
    }
    /// The catalog served now.
    let live: LiveCatalog
    let adminToken: String
    let settings: ServerSettings

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.add(middleware: AdminTokenAuthenticator(adminToken: adminToken))
        DeliveriesController(storage: storage, settings: settings).add(to: routes)
        EndpointsController(live: live, storage: storage, settings: settings).add(to: routes)
        routes.get("/v1/actions/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let found = try await settings.storage(context) { try await store.response(id: id) }
            guard let stored = found else {
                throw Problem(.notFound, "no response has the id \(id)")
            }
            return try ResponseBodies.response(StoredResponse(stored))
        }
        return routes
    }
}
