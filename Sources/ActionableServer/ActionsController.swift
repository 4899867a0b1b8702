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
        try checkContentType(request)
        let body = try await readBody(request)
        let decoded = try decode(body)
        let payload = (decoded.payload ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        let appUser: String?
        if case .appUser(let user) = context.identity { appUser = user } else { appUser = nil }
        let (notificationID, user) = try await authorize(decoded, appUser: appUser)
        let response = ActionResponse(
            category: CategoryID(decoded.category), action: ActionID(decoded.action), notificationID: notificationID,
            user: user, userText: decoded.userText, payload: payload)
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
        case .accepted(let id): return Self.json(.accepted, id: id, status: "accepted")
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

    private func checkContentType(_ request: Request) throws {
        guard let header = request.headers[.contentType] else { throw Self.unsupportedMediaType(nil) }
        if header == "application/json" { return }  // what nearly every client sends: no parsing
        let type = header.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else { throw Self.unsupportedMediaType(header) }
    }

    private static func unsupportedMediaType(_ header: String?) -> Problem {
        Problem(
            .unsupportedMediaType, "unsupported-media-type", "Unsupported media type",
            "send the body as Content-Type: application/json (got \(header ?? "none"))")
    }

    /// Refuses by Content-Length before reading, and stops reading once past the limit.
    private func readBody(_ request: Request) async throws -> ByteBuffer {
        let tooLarge = Problem(
            .contentTooLarge, "body-too-large", "Body too large",
            "the body is over \(settings.maximumBodySize) bytes, the limit for an action response")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > settings.maximumBodySize {
            throw tooLarge
        }
        var buffer = ByteBuffer()
        for try await part in request.body {
            guard buffer.readableBytes + part.readableBytes <= settings.maximumBodySize else { throw tooLarge }
            var part = part
            buffer.writeBuffer(&part)
        }
        return buffer
    }

    private func decode(_ body: ByteBuffer) throws -> ActionRequestBody {
        do {
            return try JSONDecoder().decode(ActionRequestBody.self, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw Self.problem(for: error)
        } catch {
            throw Problem(.badRequest, "invalid-json", "Invalid JSON", "the body is not valid JSON")
        }
    }

    static func problem(for error: DecodingError) -> Problem {
        func pointer(_ path: [any CodingKey]) -> String {
            path.map { "/" + SourceMap.escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = pointer(context.codingPath + [key])
            return Problem(
                .badRequest, "invalid-request", "Invalid request", "\"\(key.stringValue)\" is required",
                errors: [(at, "required")])
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let at = pointer(context.codingPath)
            let expected = type == String.self ? "a string" : type == [String: JSONValue].self ? "an object" : "\(type)"
            return Problem(
                .badRequest, "invalid-request", "Invalid request", "\(at) must be \(expected)",
                errors: [(at, "must be \(expected)")])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return Problem(.badRequest, "invalid-json", "Invalid JSON", "the body is not valid JSON")
            }
            let at = pointer(context.codingPath)
            return Problem(
                .badRequest, "invalid-request", "Invalid request", "\(at): \(context.debugDescription)",
                errors: [(at, context.debugDescription)])
        @unknown default:
            return Problem(.badRequest, "invalid-json", "Invalid JSON", "the body is not valid JSON")
        }
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
