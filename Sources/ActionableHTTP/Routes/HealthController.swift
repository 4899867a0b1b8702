import ActionableStore
import Hummingbird
import Logging

/// `GET /healthz` (the process answers) and `GET /readyz` (storage is reachable and migrated;
/// 503 until it is), answered from a state refreshed at most once a second (``ReadinessCache``):
/// never a query per request. The 503 says only that storage is not ready: the cause, which may name the
/// database's host and user, goes to the log, not to whoever asks.
struct HealthController: Sendable {
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionQueue {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings
    let readiness: ReadinessCache

    init(storage: StorageGate, settings: ServerSettings, readiness: ReadinessCache = ReadinessCache()) {
        self.storage = storage
        self.settings = settings
        self.readiness = readiness
    }

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        routes.get("/readyz") { _, context in
            // Before storage opens the gate answers at once, with no query; once open, the
            // store's own check runs at most once a second, whoever asks.
            let failure: String?
            do {
                let store = try self.store
                failure = await readiness.failure {
                    do {
                        try await store.checkReachable()
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
            } catch {
                failure = "\(error)"
            }
            if let failure {
                context.logger.warning("not ready", metadata: ["error": "\(failure)"])
                throw Problem.storageUnavailable(settings, "the storage is not ready")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
        }
        return routes
    }
}
