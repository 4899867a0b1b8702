import ActionableStore
import Hummingbird

/// `GET /healthz` (the process answers) and `GET /readyz` (storage is reachable).
struct HealthController: Sendable {
    let store: any ActionStore

    func addRoutes(to router: Router<ActionableRequestContext>) {
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/readyz") { _, context in
            do {
                try await self.store.checkReachable()
                return Response(status: .ok, headers: [.contentType: "text/plain"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
            } catch {
                context.logger.warning("storage unreachable", metadata: ["error": "\(error)"])
                return Problem(.serviceUnavailable, "storage-unavailable", "Storage is unavailable",
                    "the storage cannot be reached", headers: [.retryAfter: "5"]).response
            }
        }
    }
}
