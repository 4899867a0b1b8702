import ActionableCore
import ActionableStore
import ActionableTokens
import Foundation
import Hummingbird
import Logging

/// `POST /v1/actions`: checks a tapped action, then stores it once.
///
/// The order of checks decides which status a bad request gets: 429 overloaded, 401 app token
/// (``AppTokenAuthenticator``, when configured), 415 content type, 413 size (before the body is
/// buffered), 400 JSON, 401/403 action token, 422 catalog, then storage (202, 200 duplicate,
/// 409 conflict, 503 unavailable). Nothing is stored unless every check passed.
struct ActionsController: Sendable {
    let catalog: Catalog
    let store: any ActionStore
    let tokens: ActionTokens?
    let settings: ServerSettings
    var appTokens: AppTokens? = nil
    var metrics: ServerMetrics? = nil

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "an action response") }

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        let limiter = InFlightLimiter(limit: settings.maximumConcurrentAccepts)
        // The limit comes first: an overloaded server turns a request away before any work.
        routes.add(middleware: InFlightLimitMiddleware(limiter: limiter, settings: settings, metrics: metrics))
        if let appTokens { routes.add(middleware: AppTokenAuthenticator(tokens: appTokens)) }
        routes.post("/v1/actions") { request, context in
            do {
                let response = try await self.accept(request, context: context)
                self.metrics?.response(response.status == .accepted ? "accepted" : "duplicate")
                return response
            } catch {
                self.metrics?.response("rejected")
                throw error
            }
        }
        return routes
    }

    func accept(_ request: Request, context: ActionableRequestContext) async throws -> Response {
        let decoded = try await reader.decode(ActionRequestBody.self, from: request)
        let appUser: String?
        if case .appUser(let user) = context.identity { appUser = user } else { appUser = nil }
        let (notificationID, user) = try await authorize(decoded, appUser: appUser)
        let response = decoded.response(notificationID: notificationID, user: user)
        do {
            try catalog.validate(response)
        } catch {
            throw Problem(
                .unprocessableContent, "catalog-mismatch", "The response does not fit the catalog",
                error.description, errors: error.errors)
        }
        let result: AcceptResult
        do {
            result = try await store.accept(NewAction(response: response))
        } catch {
            context.logger.error("storage failed", metadata: ["error": "\(error)"])
            throw Problem.storageUnavailable(settings, "the response was not stored")
        }
        switch result {
        case .accepted(let id):
            metrics?.badgeRead("action")
            return Self.json(.accepted, id: id, status: "accepted")
        case .duplicate(let id): return Self.json(.ok, id: id, status: "duplicate")
        case .conflict(let id, let action):
            throw Problem(
                .conflict, "already-answered", "The notification was already answered",
                "notification \(notificationID) was answered with action \"\(action)\" (response \(id)); "
                    + "a notification is answered once",
                errors: [("/action", "another action or text was accepted for this notification")])
        }
    }

    private static func json(_ status: HTTPResponse.Status, id: String, status label: String) -> Response {
        let body = JSONValue.object([("id", .string(id)), ("status", .string(label))]).serialized()
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The notification and user the response answers for: from the verified token, or, where a
    /// deployment turned tokens off, from the body. `appUser` is the user the app's own bearer
    /// token named, when the deployment requires one.
    private func authorize(_ body: ActionRequestBody, appUser: String?) async throws -> (notificationID: String, user: String) {
        guard let tokens, settings.requireActionTokens else {
            guard let notificationID = body.notificationId, !notificationID.isEmpty else {
                throw Problem(
                    .badRequest, "invalid-request", "Invalid request",
                    "\"notificationId\" is required when action tokens are off", errors: [("/notificationId", "required")])
            }
            return (notificationID, "anonymous")
        }
        guard let text = body.actionToken else {
            throw Problem(
                .unauthorized, "token-missing", "Action token missing",
                "send the notification's actionToken with the response", errors: [("/actionToken", "required")])
        }
        do {
            let token = try await tokens.verify(text)
            try token.authorize(
                category: CategoryID(body.category), action: ActionID(body.action),
                notificationID: body.notificationId, user: appUser)
            return (token.notificationID, token.user)
        } catch {
            let pointer = error.code == .wrongNotification ? "/notificationId" : "/actionToken"
            throw Problem(
                error.status == 401 ? .unauthorized : .forbidden, "token-\(error.code)",
                error.status == 401 ? "Invalid action token" : "Action token does not cover this response",
                error.description, errors: [(pointer, error.description)])
        }
    }
}
