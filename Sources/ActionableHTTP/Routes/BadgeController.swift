import ActionableCore
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// The badge ledger over HTTP, behind ``BackendOrAppAuthenticator``:
///
/// - `POST /v1/notifications` (backend): records a sent notification as unread; 201 the first
///   time, 200 after, with the user's badge to put in `aps.badge`.
/// - `POST /v1/badge/read` (app or backend): marks notifications, or all, read.
/// - `GET /v1/badge/{user}` (backend, or the app for its own user).
struct BadgeController: Sendable {
    /// The catalog served now.
    let live: LiveCatalog
    private var catalog: Catalog { live.catalog }
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any BadgeLedger {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings
    var metrics: ServerMetrics? = nil

    /// The most ids one read may name.
    static let maximumIDs = 1000
    /// The longest user or notification id.
    static let maximumIDLength = 256

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "a badge request") }
    private var countingSince: Date { Date().addingTimeInterval(-settings.badgeLifetime) }

    func routes(authenticator: BackendOrAppAuthenticator) -> RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.add(middleware: authenticator)
        routes.post("/v1/notifications") { request, context in try await record(request, context: context) }
        routes.post("/v1/badge/read") { request, context in try await read(request, context: context) }
        routes.get("/v1/badge/:user") { _, context in
            let user = context.parameters.get("user") ?? ""
            try Self.check(id: user, at: "/user")
            if case .appUser(let own) = context.identity, own != user {
                throw Problem(.otherUser, "an app may read its own user's badge only")
            }
            return try Self.badge(
                try await settings.storage(context, "the badge ledger cannot be reached") {
                    try await store.badge(user: user, countingSince: countingSince)
                })
        }
        return routes
    }

    private func record(_ request: Request, context: ActionableRequestContext) async throws -> Response {
        guard context.identity == .backend else {
            throw Problem(.backendOnly, "only the backend records sent notifications, with its --backend-token")
        }
        let body = try await reader.decode(NotificationRecordBody.self, from: request)
        try Self.check(id: body.user, at: "/user")
        try Self.check(id: body.notificationId, at: "/notificationId")
        guard catalog[CategoryID(body.category)] != nil else {
            let hint = catalog.suggestion(for: CategoryID(body.category)).map { " (did you mean \"\($0.rawValue)\"?)" } ?? ""
            throw Problem(.catalogMismatch, "category \"\(body.category)\" is not in the catalog\(hint)", errors: [("/category", "unknown category")])
        }
        let sent = SentNotification(notificationID: body.notificationId, user: body.user, category: body.category)
        let result = try await settings.storage(context, "the badge ledger cannot be reached") {
            try await store.recordSent(sent, countingSince: countingSince)
        }
        switch result {
        case .recorded(let badge):
            metrics?.badgeRecord("recorded")
            return try Self.badge(badge, status: .created)
        case .recordedBefore(let badge):
            metrics?.badgeRecord("duplicate")
            return try Self.badge(badge)
        case .otherUser:
            throw Problem(
                .notificationOfAnotherUser, "notification \(body.notificationId) is recorded for another user; notification ids are unique",
                errors: [("/notificationId", "recorded for another user")])
        }
    }

    private func read(_ request: Request, context: ActionableRequestContext) async throws -> Response {
        let body = try await reader.decode(BadgeReadBody.self, from: request)
        let user: String
        switch context.identity {
        case .appUser(let own):
            if let named = body.user, named != own {
                throw Problem(
                    .otherUser, "an app may mark its own user's notifications read only",
                    errors: [("/user", "not the app's user")])
            }
            user = own
        default:
            guard let named = body.user else {
                throw Problem(
                    .invalidRequest, "\"user\" is required from the backend",
                    errors: [("/user", "required")])
            }
            user = named
        }
        try Self.check(id: user, at: "/user")
        let at = Date()
        let badge: Int
        switch (body.notificationIds, body.all) {
        case (let ids?, nil):
            guard ids.count <= Self.maximumIDs else {
                throw Problem(
                    .invalidRequest, "at most \(Self.maximumIDs) notification ids at once",
                    errors: [("/notificationIds", "more than \(Self.maximumIDs) ids")])
            }
            for (index, id) in ids.enumerated() { try Self.check(id: id, at: "/notificationIds/\(index)") }
            badge = try await settings.storage(context, "the badge ledger cannot be reached") {
                try await store.markRead(user: user, notificationIDs: ids, at: at, countingSince: countingSince)
            }
        case (nil, true?):
            badge = try await settings.storage(context, "the badge ledger cannot be reached") {
                try await store.markAllRead(user: user, at: at, countingSince: countingSince)
            }
        default:
            throw Problem(
                .invalidRequest, "send either \"notificationIds\": [...] or \"all\": true, not both",
                errors: [("/notificationIds", "either notificationIds or all: true")])
        }
        metrics?.badgeRead(context.identity == .backend ? "backend" : "app")
        return try Self.badge(badge)
    }

    /// A user or notification id: not empty, at most ``maximumIDLength`` characters.
    static func check(id: String, at pointer: String) throws {
        guard !id.isEmpty, id.count <= maximumIDLength else {
            throw Problem(
                .invalidRequest, "\(pointer) must be a non-empty string of at most \(maximumIDLength) characters",
                errors: [(pointer, id.isEmpty ? "empty" : "longer than \(maximumIDLength) characters")])
        }
    }

    private static func badge(_ count: Int, status: HTTPResponse.Status = .ok) throws -> Response {
        try ResponseBodies.response(BadgeCount(badge: count), status: status)
    }
}
