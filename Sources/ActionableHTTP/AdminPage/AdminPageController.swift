import ActionableCore
import ActionablePreview
import ActionableStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import Logging

/// `GET /admin`: the operators' web page, rendered on the server with swift-mustache (no
/// JavaScript): counts by state, the endpoints with their state, rate and failure streak and a
/// Pause or Resume button, the dead and pending responses with their last error and a Retry
/// button, and the catalog preview.
///
/// Browsers sign in with the admin token through a form (`POST /admin/session`), which sets an
/// HttpOnly, SameSite=Strict session cookie; every form carries the session's CSRF token.
/// Scripts may send `Authorization: Bearer <admin token>` instead. Without either, the page
/// shows the sign-in form and nothing else.
struct AdminPageController: Sendable {
    /// The catalog served now, and its last reload.
    let live: LiveCatalog
    /// This instance's counts not yet in storage: flushed before the charts are read, so that the
    /// page shows what this instance just did.
    var activity: ActivityLog? = nil
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionStore {
        get throws(StorageNotReady) { try storage.store() }
    }
    let adminToken: String
    let settings: ServerSettings
    let renderer: PreviewRenderer
    let session: AdminSession
    /// Failed sign-ins per client address (5 a minute).
    let throttle = SignInThrottle()

    /// How many dead, pending and held responses the page lists.
    static let listed = 50

    init(live: LiveCatalog, storage: StorageGate, adminToken: String, settings: ServerSettings, activity: ActivityLog? = nil) throws {
        self.live = live
        self.activity = activity
        self.storage = storage
        self.adminToken = adminToken
        self.settings = settings
        session = AdminSession(adminToken: adminToken)
        renderer = try PreviewRenderer(extra: [
            "sign-in": AdminTemplates.signIn, "admin": AdminTemplates.admin,
            "rows-dead": AdminTemplates.rows("dead", has: "hasDead", retry: true),
            "rows-pending": AdminTemplates.rows("pending", has: "hasPending", retry: false),
            "rows-held": AdminTemplates.rows("held", has: "hasHeld", retry: false, reason: true),
            "endpoints": AdminTemplates.endpoints, "categories": AdminTemplates.categories,
        ])
    }

    /// Who is asking: an operator with a session (its nonce), one with the bearer token, or nobody.
    enum Visitor {
        case session(nonce: String, expiry: Date)
        case bearer
        case nobody
    }

    var routes: RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.get("/admin") { request, context in
            switch try await signedInVisitor(request, context: context) {
            case .nobody: return page(signIn(problem: nil))
            case .bearer: return page(try await admin(csrf: nil, notice: nil, context: context))
            case .session(let nonce, _):
                let queued = request.uri.queryParameters["queued"].map(String.init)
                let notice = queued.map { "Response \($0) is queued again; it will be delivered with the same webhook-id." }
                return page(try await admin(csrf: session.csrfToken(forNonce: nonce), notice: notice, context: context))
            }
        }
        routes.post("/admin/session") { request, context in
            let address = context.clientAddress
            // The place is taken before the body is read: sign-ins sent at once all count.
            if let wait = throttle.reserve(for: address) {
                var response = page(
                    signIn(problem: "Too many wrong tokens from this address: try again in \(wait) seconds."),
                    status: .tooManyRequests)
                response.headers[.retryAfter] = String(wait)
                return response
            }
            let form: [String: String]
            do {
                form = try await AdminForm.fields(of: request, allowing: ["token"])
            } catch {
                throttle.release(address)
                throw error
            }
            guard let token = form["token"], AdminTokenAuthenticator.constantTimeEqual(token, adminToken) else {
                throttle.recordFailure(from: address)
                context.logger.notice("admin sign-in refused: wrong token", metadata: ["client": "\(address)"])
                return page(signIn(problem: "That is not the server's admin token."), status: .unauthorized)
            }
            throttle.reset(address)
            var response = Self.redirect("/admin")
            response.headers[.setCookie] = cookie(session.newCookie(), maxAge: Int(AdminSession.lifetime))
            return response
        }
        routes.post("/admin/logout") { request, context in
            let form = try await AdminForm.fields(of: request, allowing: ["csrf"])
            guard case .session(let nonce, let expiry) = try await signedInVisitor(request, context: context),
                session.isValidCSRF(form["csrf"] ?? "", forNonce: nonce)
            else {
                return page(signIn(problem: nil))
            }
            // Recorded in storage before the answer: the cookie, copied or not, and its CSRF token
            // are refused by every instance from now on, not only forgotten by this browser.
            try await settings.storage(context, "the storage cannot be reached: the session is not signed out; try again") {
                // Kept an hour past the cookie's expiry: an instance whose clock runs behind still refuses it.
                try await store.recordSignOut(session: nonce, until: expiry.addingTimeInterval(3600), now: Date())
            }
            var response = Self.redirect("/admin")
            response.headers[.setCookie] = cookie("", maxAge: 0)
            return response
        }
        routes.post("/admin/deliveries/:id/retry") { request, context in
            let id = context.parameters.get("id") ?? ""
            return try await authorizedForm(request, context: context) {
                switch try await settings.storage(context, "the storage cannot be reached", { try await store.requeue(id: id, at: Date()) }) {
                case .queued:
                    let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    return Self.redirect("/admin?queued=\(escaped)")
                case .alreadyPending:
                    throw Problem(.deliveryPending, "response \(id) is pending already")
                case .notFound:
                    throw Problem(.notFound, "no response has the id \(id)")
                }
            }
        }
        routes.post("/admin/categories/reload") { request, context in
            try await authorizedForm(request, context: context) {
                let reload = live.reload()
                context.logger.notice("categories reloaded from the admin page", metadata: ["result": "\(reload.result)"])
                return Self.redirect("/admin")
            }
        }
        for (verb, paused) in [("pause", true), ("resume", false)] {
            routes.post("/admin/endpoints/:id/\(verb)") { request, context in
                let id = context.parameters.get("id") ?? ""
                return try await authorizedForm(request, context: context) {
                    let changed = try await settings.storage(context, "the storage cannot be reached") {
                        try await store.updateEndpoint(id: id, EndpointChange(paused: paused), at: Date())
                    }
                    guard changed != nil else { throw Problem(.notFound, "no endpoint is named \(id.prefix(80))") }
                    return Self.redirect("/admin")
                }
            }
        }
        return routes
    }

    /// Runs `change` for a form an operator may send: a session whose CSRF token matches, or the
    /// bearer token; the sign-in page otherwise, with nothing changed.
    private func authorizedForm(
        _ request: Request, context: ActionableRequestContext, _ change: () async throws -> Response
    ) async throws -> Response {
        let form = try await AdminForm.fields(of: request, allowing: ["csrf"])
        switch try await signedInVisitor(request, context: context) {
        case .nobody:
            return page(signIn(problem: "Sign in first."), status: .unauthorized)
        case .session(let nonce, _) where !session.isValidCSRF(form["csrf"] ?? "", forNonce: nonce):
            return page(
                signIn(problem: "The form's CSRF token does not belong to this session: nothing was changed. Reload the page and try again."),
                status: .forbidden)
        case .session, .bearer:
            return try await change()
        }
    }

    func visitor(_ request: Request) -> Visitor {
        if let bearer = request.headers.bearer, AdminTokenAuthenticator.constantTimeEqual(bearer.token, adminToken) { return .bearer }
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2, parts[0] == AdminSession.cookieName, let found = session.session(ofCookie: parts[1]) {
                    return .session(nonce: found.nonce, expiry: found.expiry)
                }
            }
        }
        return .nobody
    }

    /// ``visitor(_:)``, with a session signed out (on any instance) counted as nobody: storage is
    /// asked, so a storage that cannot be reached is a 503 rather than a guess.
    func signedInVisitor(_ request: Request, context: ActionableRequestContext) async throws -> Visitor {
        let found = visitor(request)
        guard case .session(let nonce, _) = found else { return found }
        let signedOut = try await settings.storage(context, "the storage cannot be reached") {
            try await store.isSignedOut(session: nonce)
        }
        return signedOut ? .nobody : found
    }

    private func cookie(_ value: String, maxAge: Int) -> String {
        "\(AdminSession.cookieName)=\(value); Path=/admin; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (settings.secureAdminCookie ? "; Secure" : "")
    }

    private struct SignIn {
        var problem: String?
    }

    private func signIn(problem: String?) -> String { renderer.render(SignIn(problem: problem), template: "sign-in") }

    private struct Row {
        var id, category, action, user, received: String
        var attempts: Int
        var lastError: String?
        var next: String
    }

    private struct Count {
        var state: String
        var count: Int
    }

    private struct EndpointRow {
        var id, url, filter, state, rate, nextProbe, toggle, toggleLabel, successRate, latency: String
        var failureStreak: Int
        var csrf: String?
    }

    private struct LastReload {
        var at, result, summary: String
        var problems: [String]
        var hasProblems: Bool
    }

    private struct TapChart {
        var category: String
        var total: Int64
        var chart: String
    }

    private struct AdminPage {
        var csrf: String?
        var outboxDepth: Int
        var oldestDue: String
        var timeline: String
        var tapCharts: [TapChart]
        var hasTapCharts: Bool
        var categoryCount: Int
        var servedSince, etag: String
        var lastReload: LastReload?
        var notice: String?
        var counts: [Count]
        var endpoints: [EndpointRow]
        var hasEndpoints: Bool
        var dead: [Row]
        var hasDead: Bool
        var pending: [Row]
        var hasPending: Bool
        var held: [Row]
        var hasHeld: Bool
        var preview: CatalogPreview
    }

    private func admin(csrf: String?, notice: String?, context: ActionableRequestContext) async throws -> String {
        let now = Date()
        let (counts, endpoints, dead, pending, held, activity) = try await settings.storage(context) {
            (
                try await store.responseCounts(),
                try await store.endpoints(),
                try await store.responses(matching: ResponseFilter(status: .dead), after: nil, limit: Self.listed).items,
                try await store.responses(matching: ResponseFilter(status: .pending), after: nil, limit: Self.listed).items,
                try await store.responses(matching: ResponseFilter(status: .held), after: nil, limit: Self.listed).items,
                try await readActivity(from: store, now: now)
            )
        }
        func row(_ action: AcceptedResponse) -> Row {
            Row(
                id: action.id, category: action.response.category.rawValue, action: action.response.action.rawValue,
                user: action.response.user, received: Timestamp.iso8601(action.receivedAt), attempts: action.attempts,
                lastError: action.lastError, next: Timestamp.iso8601(action.nextAttemptAt))
        }
        func row(_ endpoint: Endpoint) -> EndpointRow {
            EndpointRow(
                id: endpoint.id, url: Self.shortened(endpoint.url), filter: endpoint.filter.joined(separator: ", "),
                state: endpoint.state.rawValue, rate: endpoint.rateLimit.map { "\($0.formatted()) / s" } ?? "no limit",
                nextProbe: endpoint.openUntil.map(Timestamp.iso8601) ?? "", toggle: endpoint.paused ? "resume" : "pause",
                toggleLabel: endpoint.paused ? "Resume" : "Pause",
                successRate: activity.successRate(of: endpoint.id), latency: activity.latency(of: endpoint.id),
                failureStreak: endpoint.failureStreak, csrf: csrf)
        }
        let release = live.current
        let tapCharts = activity.tapCharts(catalog: release.catalog).map {
            TapChart(category: $0.category, total: $0.bars.reduce(0) { $0 + $1.count }, chart: AdminCharts.bars($0.bars, id: "taps-\($0.category)"))
        }
        let data = AdminPage(
            csrf: csrf, outboxDepth: activity.depth, oldestDue: activity.oldestDueText, timeline: activity.timeline,
            tapCharts: tapCharts, hasTapCharts: !tapCharts.isEmpty, categoryCount: release.catalog.categories.count,
            servedSince: Timestamp.iso8601(release.since), etag: release.etag,
            lastReload: live.lastReload.map(Self.lastReload), notice: notice,
            counts: ResponseStatus.allCases.map { Count(state: $0.rawValue, count: counts[$0] ?? 0) },
            endpoints: endpoints.map(row), hasEndpoints: !endpoints.isEmpty,
            dead: dead.map(row), hasDead: !dead.isEmpty, pending: pending.map(row), hasPending: !pending.isEmpty,
            held: held.map(row), hasHeld: !held.isEmpty,
            preview: CatalogPreview(catalog: release.catalog))
        return renderer.render(data, template: "admin")
    }
    private static func lastReload(_ reload: LiveCatalog.Reload) -> LastReload {
        let (summary, problems): (String, [String]) =
            switch reload.outcome {
            case .reloaded(let etag): ("the category files loaded; ETag \(etag) is served.", [])
            case .unchanged: ("the category files loaded and hold the catalog already served.", [])
            case .refused(let problems): ("refused; the catalog served before stays. Fix the files and reload again:", problems)
            case .notFromFiles: ("nothing to reload: this server was given its catalog in code, not from files.", [])
            }
        return LastReload(
            at: Timestamp.iso8601(reload.at), result: reload.result, summary: summary, problems: problems, hasProblems: !problems.isEmpty)
    }

    /// An endpoint's URL as the page shows it: scheme, host, port and path, never its query
    /// (which may hold a secret).
    static func shortened(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(unreadable URL)" }
        components.query = nil
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components.string ?? "(unreadable URL)"
    }

    private func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
                Self.frameOptions: "DENY",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `X-Frame-Options`, which HTTPTypes has no constant for.
    private static let frameOptions = HTTPField.Name("X-Frame-Options") ?? .contentSecurityPolicy

    private static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}
