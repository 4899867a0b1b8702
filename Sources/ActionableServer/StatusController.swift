import ActionableCore
import ActionableStore
import Crypto
import Foundation
import Hummingbird

/// `GET /v1/actions/{id}`: where a response's delivery stands, for operators (pending, delivered
/// or dead, attempts, the last error). Protected by the admin token: `Authorization: Bearer …`.
struct StatusController: Sendable {
    let store: any ActionStore
    let adminToken: String

    func addRoutes(to router: Router<ActionableRequestContext>) {
        router.get("/v1/actions/:id") { request, context in
            guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
                Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), adminToken)
            else {
                return Problem(.unauthorized, "admin-token", "Admin token required",
                    "send Authorization: Bearer <the server's --admin-token>").response
            }
            let id = context.parameters.get("id") ?? ""
            let stored: StoredAction?
            do {
                stored = try await store.action(id: id)
            } catch {
                return Problem(.serviceUnavailable, "storage-unavailable", "Storage is unavailable",
                    "the storage cannot be reached", headers: [.retryAfter: "5"]).response
            }
            guard let stored else {
                return Problem(.notFound, "not-found", "No such response", "no response has the id \(id)").response
            }
            let body = JSONValue.object([
                ("id", .string(stored.id)),
                ("status", .string(stored.status.rawValue)),
                ("attempts", .int(stored.attempts)),
                ("nextAttemptAt", .double(stored.nextAttemptAt.timeIntervalSince1970)),
                ("lastError", stored.lastError.map(JSONValue.string) ?? .null),
                ("category", .string(stored.response.category.rawValue)),
                ("action", .string(stored.response.action.rawValue)),
                ("notificationId", .string(stored.response.notificationID)),
                ("user", .string(stored.response.user)),
                ("receivedAt", .double(stored.receivedAt.timeIntervalSince1970)),
            ]).serialized()
            return Response(status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// Compares digests, so the time taken does not depend on where the strings differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(SHA256.hash(data: Array(a.utf8)))
        let right = Array(SHA256.hash(data: Array(b.utf8)))
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
