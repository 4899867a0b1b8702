import ActionableStore
import Hummingbird

/// `GET /healthz` (the process answers) and `GET /readyz` (storage is reachable and migrated;
/// 503 until it is). The 503 says only that storage is not ready: the cause, which may name the
/// database's host and user, goes to the log, not to whoever asks.
struct HealthController: Sendable {
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionQueue {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        routes.get("/readyz") { _, context in
            do {
                try await self.store.checkReachable()
            } catch {
                context.logger.warning("not ready", metadata: ["error": "\(error)"])
                throw Problem.storageUnavailable(settings, "the storage is not ready")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
        }
        return routes
    }
}
