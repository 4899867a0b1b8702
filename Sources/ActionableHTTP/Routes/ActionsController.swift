import ActionableCore
import ActionableStore
import ActionableTokens
import ActionableWire
import Foundation
import Hummingbird
import Logging
import Tracing

/// `POST /v1/actions`: checks a tapped action, then stores it once.
///
/// The order of checks decides which status a bad request gets: 401 app token
/// (``AppTokenAuthenticator``, when configured), 415 content type, 413 size (before the body is
/// buffered), 400 JSON, 401/403 action token, 422 catalog, 422 payload (the token's `pld`),
/// 429 overloaded (a slot is taken only now, once the body is read), then storage (202, 200
/// duplicate, 409 conflict, 503 unavailable). Nothing is stored unless every check passed.
struct ActionsController: Sendable {
    /// The catalog served now: each tap is checked against one release of it.
    let live: LiveCatalog
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionQueue {
        get throws(StorageNotReady) { try storage.store() }
    }
    let tokens: ActionTokens?
    let settings: ServerSettings
    var appTokens: AppTokens? = nil
    var metrics: ServerMetrics? = nil
    /// Whether this server sends notifications itself: then a tap on one it sent forwards the
    /// payload it recorded, whatever the tap carries.
    var readsSentPayloads = false
    /// Woken by each accepted response: the outbox's workers claim it at once.
    var deliverySignal: OutboxSignal? = nil
    /// Where each accepted tap is counted for the admin page's charts.
    var activity: ActivityLog? = nil
    /// Accepts in progress: a slot is taken once the body is read and checked, so clients that
    /// trickle their bodies hold no slot (the read deadline closes them).
    let limiter: InFlightLimiter
    /// The notifications whose unbound token was logged already.
    let unboundTokens = SightingLog()

    init(
        live: LiveCatalog, storage: StorageGate, tokens: ActionTokens?, settings: ServerSettings, appTokens: AppTokens? = nil,
        metrics: ServerMetrics? = nil, readsSentPayloads: Bool = false, deliverySignal: OutboxSignal? = nil,
        activity: ActivityLog? = nil
    ) {
        self.live = live
        self.storage = storage
        self.tokens = tokens
        self.settings = settings
        self.appTokens = appTokens
        self.metrics = metrics
        self.readsSentPayloads = readsSentPayloads
        self.deliverySignal = deliverySignal
        self.activity = activity
        limiter = InFlightLimiter(limit: settings.maximumConcurrentAccepts)
    }

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "an action response") }

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        if let appTokens { routes.add(middleware: AppTokenAuthenticator(tokens: appTokens)) }
        routes.post("/v1/actions") { request, context in
            // Without tracing, no span is made at all: even a no-op tracer's span costs the accept
            // path a few µs of CPU per tap (BENCHMARKS.md, "The accept path by its CPU").
            guard self.settings.tracing else { return try await self.answer(request, context: context, span: nil) }
            // The accept span: its trace context is stored with the response, and every delivery
            // attempt of it continues that trace (``TraceParent``).
            return try await withSpan("actionable.accept") { span in
                try await self.answer(request, context: context, span: span)
            }
        }
        return routes
    }

    /// The accept, counted by its result, and noted on `span` when the request is traced.
    private func answer(_ request: Request, context: ActionableRequestContext, span: (any Span)?) async throws -> Response {
        do {
            let response = try await accept(request, context: context, span: span)
            metrics?.response(response.status == .accepted ? "accepted" : "duplicate")
            return response
        } catch {
            metrics?.response("rejected")
            span?.attributes["actionable.result"] = "rejected"
            throw error
        }
    }

    func accept(_ request: Request, context: ActionableRequestContext, span: (any Span)?) async throws -> Response {
        let decoded = try await reader.decode(ActionRequestBody.self, from: request)
        let catalog = live.catalog
        let appUser: String?
        if case .appUser(let user) = context.identity { appUser = user } else { appUser = nil }
        let (notificationID, user, token) = try await authorize(decoded, appUser: appUser)
        let sent = token == nil ? nil : try await sentPayload(of: notificationID, user: user, category: decoded.category, context: context)
        let response =
            sent.map {
                ActionResponse(
                    category: CategoryID(decoded.category), action: ActionID(decoded.action), notificationID: notificationID, user: user,
                    userText: decoded.userText, payloadJSON: $0)
            } ?? decoded.response(notificationID: notificationID, user: user)
        do {
            try catalog.validate(response)
        } catch {
            throw Problem(.catalogMismatch, error.description, errors: error.errors)
        }
        if let token, sent == nil { try checkPayload(decoded, against: token, catalog: catalog, context: context) }
        guard limiter.tryEnter() else { throw Problem.overloaded(settings) }  // counted as rejected by the route
        defer { limiter.leave() }
        let result: AcceptResult
        do {
            // Kept at least until the token can no longer pass, whatever the retention.
            let answerableUntil = token.map { $0.expiresAt.addingTimeInterval(ActionTokens.leeway) }
            let action = NewResponse(
                response: response, answerableUntil: answerableUntil, traceParent: span == nil ? nil : TraceParent.current())
            if let span {
                span.attributes["actionable.notification_id"] = notificationID
                span.attributes["actionable.category"] = response.category.rawValue
                span.attributes["actionable.action"] = response.action.rawValue
                result = try await withSpan("actionable.commit") { commit in
                    commit.attributes["actionable.response_id"] = action.id
                    return try await store.accept(action)
                }
            } else {
                result = try await store.accept(action)
            }
        } catch {
            context.logger.error("storage failed", metadata: ["error": "\(error)"])
            throw Problem.storageUnavailable(settings, "the response was not stored")
        }
        span?.attributes["actionable.response_id"] = result.responseID
        span?.attributes["actionable.result"] = result.name
        switch result {
        case .accepted(let id):
            deliverySignal?.signal(.init(category: response.category.rawValue, action: response.action.rawValue))
            metrics?.badgeRead("action")
            if let activity {
                let now = Date()
                activity.count(.accepted, at: now)
                activity.count(.tap, "\(response.category.rawValue).\(response.action.rawValue)", at: now)
            }
            return ActionAnswer(id: id, status: "accepted").response(status: .accepted)
        case .duplicate(let id): return ActionAnswer(id: id, status: "duplicate").response(status: .ok)
        case .conflict(let id, let action):
            throw Problem(
                .alreadyAnswered,
                "notification \(notificationID) was answered with action \"\(action)\" (response \(id)); "
                    + "a notification is answered once",
                errors: [("/action", "another action or text was accepted for this notification")])
        }
    }

    /// The payload this server recorded when it sent notification `id` to `user` in `category`
    /// itself, or `nil` (it did not send it, or does not send at all).
    private func sentPayload(of id: String, user: String, category: String, context: ActionableRequestContext) async throws -> String? {
        guard readsSentPayloads else { return nil }
        let stored = try await settings.storage(context, "the notification's payload cannot be read; nothing stored") {
            try await storage.store().notification(id: id)
        }
        guard let stored, stored.notification.user == user, stored.notification.category == category else { return nil }
        return stored.notification.payloadJSON
    }

    /// Refuses a payload that is not the one the token was minted for (422 `payload-mismatch`),
    /// and a token that binds none unless the deployment accepts unbound payloads for a
    /// migration window (then logged once per token).
    private func checkPayload(
        _ body: ActionRequestBody, against token: ActionToken, catalog: Catalog, context: ActionableRequestContext
    ) throws {
        guard let schema = catalog[CategoryID(body.category)]?.payload else { return }  // validated before
        let digest = PayloadDigest(payload: body.payload ?? [:], schema: schema)
        do {
            if try token.verifyPayload(digest) { return }
        } catch {
            throw Problem(
                .payloadMismatch, "\(error.description); send back the notification's custom keys as they arrived, nothing stored",
                errors: [("/payload", "does not match the payload the action token was minted for")])
        }
        guard settings.acceptUnboundPayloads else {
            throw Problem(
                .tokenUnbound,
                "the action token has no pld claim, so its payload cannot be checked; mint tokens with this version's "
                    + "PayloadBuilder or actionable payload (or run the server with --accept-unbound-payloads for a migration window)",
                errors: [("/actionToken", "has no pld claim")])
        }
        if unboundTokens.firstSighting(of: token.notificationID) {
            context.logger.warning(
                "accepted an action token without a pld claim (--accept-unbound-payloads): its payload is not checked",
                metadata: ["notification": "\(token.notificationID)", "user": "\(token.user)"])
        }
    }

    /// The notification and user the response answers for, and the verified token: from the
    /// token, or, where a deployment turned tokens off, from the body (and no token).
    /// `appUser` is the user the app's own bearer token named, when the deployment requires one.
    private func authorize(
        _ body: ActionRequestBody, appUser: String?
    ) async throws -> (notificationID: String, user: String, token: ActionToken?) {
        guard let tokens, settings.requireActionTokens else {
            guard let notificationID = body.notificationId, !notificationID.isEmpty else {
                throw Problem(.invalidRequest, "\"notificationId\" is required when action tokens are off", errors: [("/notificationId", "required")])
            }
            return (notificationID, "anonymous", nil)
        }
        guard let text = body.actionToken else {
            throw Problem(.tokenMissing, "send the notification's actionToken with the response", errors: [("/actionToken", "required")])
        }
        do {
            let token = try await tokens.verify(text)
            try token.authorize(
                category: CategoryID(body.category), action: ActionID(body.action),
                notificationID: body.notificationId, user: appUser)
            return (token.notificationID, token.user, token)
        } catch {
            let pointer = error.code == .wrongNotification ? "/notificationId" : "/actionToken"
            throw Problem(.token(error.code, status: error.status), error.description, errors: [(pointer, error.description)])
        }
    }
}
