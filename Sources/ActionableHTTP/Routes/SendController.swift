import ActionableCore
import ActionablePayload
import ActionableStore
import ActionableTokens
import ActionableWire
import Foundation
import Hummingbird

/// Sending over HTTP, behind ``BackendOrAppAuthenticator`` (the backend only):
///
/// - `POST /v1/send`: checks the notification as ``PayloadBuilder`` does, mints its action token
///   (bound to the user, the notification and the payload), records it with a copy for each of
///   the user's active devices in one transaction (and, with `"badge": "auto"`, as unread in the
///   badge ledger), then wakes the send worker: 202 with the number of devices. The same id
///   again: 200, nothing sent twice; an id of another user: 409.
/// - `GET /v1/notifications/{id}`: the notification and where each device's copy stands.
///
/// A notification goes to each active device of the user on the platforms this server sends to:
/// iOS with APNs configured (`--apns-key-file` …), Android with FCM (`--fcm-service-account`),
/// with one action token for all. Without either, `POST /v1/send` answers 501.
struct SendController: Sendable {
    /// The catalog served now.
    let live: LiveCatalog
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ActionStore {
        get throws(StorageNotReady) { try storage.store() }
    }
    let tokens: ActionTokens?
    let settings: ServerSettings
    /// Wakes the APNs transport; `nil` when this server does not send to iOS devices.
    let signal: OutboxSignal?
    /// Wakes the FCM transport; `nil` when this server does not send to Android devices.
    let fcmSignal: OutboxSignal?

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "a notification to send") }

    func routes(authenticator: BackendOrAppAuthenticator) -> RouteCollection<ActionableRequestContext> {
        let routes = RouteCollection(context: ActionableRequestContext.self)
        routes.add(middleware: authenticator)
        routes.post("/v1/send") { request, context in try await send(request, context: context) }
        routes.get("/v1/notifications/:id") { _, context in
            try Self.requireBackend(context, "only the backend reads what was sent, with its --backend-token")
            let id = context.parameters.get("id") ?? ""
            try BadgeController.check(id: id, at: "/notificationId")
            let stored = try await settings.storage(context, "the notifications cannot be reached") {
                try await store.notification(id: id)
            }
            guard let stored else { throw Problem(.notFound, "no notification \(id) was sent by this server") }
            return try ResponseBodies.response(NotificationReport(stored))
        }
        return routes
    }

    private static func requireBackend(_ context: ActionableRequestContext, _ detail: String) throws {
        guard context.identity == .backend else { throw Problem(.backendOnly, detail) }
    }

    private func send(_ request: Request, context: ActionableRequestContext) async throws -> Response {
        try Self.requireBackend(context, "only the backend sends notifications, with its --backend-token")
        guard signal != nil || fcmSignal != nil else {
            throw Problem(
                .sendingOff,
                "start it with --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic to send to iOS devices, or --fcm-service-account to send to Android ones"
            )
        }
        guard let tokens else {
            throw Problem(.sendingOff, "this server runs without action tokens, so it cannot mint one for a notification it sends")
        }
        let body = try await reader.decode(SendRequest.self, from: request)
        let notificationID = body.notificationId ?? UUID().uuidString.lowercased()
        try BadgeController.check(id: body.user, at: "/user")
        try BadgeController.check(id: notificationID, at: "/notificationId")
        let category = CategoryID(body.category)
        let catalog = live.catalog
        let plan = try SendPlan(body, catalog: catalog)

        // An id taken before answers as it did, whatever this body says: nothing is sent twice.
        if let known = try await settings.storage(
            context, "the notifications cannot be reached", { try await store.notification(id: notificationID) })
        {
            return try answer(known.notification.user == body.user ? .recordedBefore(devices: known.sends.count) : .otherUser, id: notificationID)
        }
        let builder = PayloadBuilder(catalog: catalog, tokens: tokens)
        var aps = plan.aps
        // The devices it goes to: the user's active ones on the platforms this server sends to (a
        // copy no transport takes would stay pending for good).
        let sendsTo: Set<DevicePlatform> = Set([signal.map { _ in .ios }, fcmSignal.map { _ in .android }].compactMap { $0 })
        let devices = try await settings.storage(context, "the device registry cannot be reached") {
            try await store.devices(of: body.user).filter { $0.state == .active && sendsTo.contains($0.platform) }
        }
        let toAndroid = devices.contains { $0.platform == .android }
        let now = Date()
        if case .auto = body.badge {
            // The badge is recorded before the payloads can be built (its count goes into them),
            // so they are checked first, with a badge as large as any: the APNs payload, and the
            // FCM message when an Android device gets it (a payload key FCM reserves refuses the
            // send only then). Any other send is built once, below, before anything is recorded.
            do {
                var checked = aps
                checked.badge = 99_999
                _ = try builder.build(category: category, aps: checked, fields: plan.fields, pushType: plan.pushType)
                if toAndroid {
                    _ = try builder.androidMessage(
                        category: category, fields: plan.fields, actionToken: String(repeating: "t", count: 400),
                        options: plan.fcmOptions(body, notificationID: notificationID, badge: 99_999, now: now))
                }
            } catch {
                throw Problem(error)
            }
            let sent = SentNotification(notificationID: notificationID, user: body.user, category: body.category, sentAt: now)
            let result = try await settings.storage(context, "the badge ledger cannot be reached") {
                try await store.recordSent(sent, countingSince: now.addingTimeInterval(-settings.badgeLifetime))
            }
            switch result {
            case .recorded(let count), .recordedBefore(let count): aps.badge = count
            case .otherUser: return try answer(.otherUser, id: notificationID)
            }
        }
        // One action token for every device, on both platforms: bound to the user, the
        // notification and the payload, as the app posts it back from either.
        let payload: NotificationPayload
        let fcmMessage: String?
        do {
            let actionToken = try await tokens.mint(
                user: body.user, notificationID: notificationID, category: category, actions: nil,
                payload: try builder.payloadDigest(category: category, fields: plan.fields), lifetime: 7 * 24 * 3600, now: now)
            payload = try builder.build(
                category: category, aps: aps, fields: plan.fields, actionToken: actionToken, pushType: plan.pushType)
            fcmMessage =
                !toAndroid
                ? nil
                : try builder.androidMessage(
                    category: category, fields: plan.fields, actionToken: actionToken,
                    options: plan.fcmOptions(body, notificationID: notificationID, badge: aps.badge, now: now)
                ).json
        } catch let error as PayloadError {
            throw Problem(error)
        }
        let notification = NewNotification(
            notificationID: notificationID, user: body.user, category: body.category, payloadJSON: JSONValue.object(plan.fields).serialized(),
            apnsPayload: payload.json, pushType: plan.pushType == .background ? "background" : "alert", collapseID: body.collapseId,
            expiration: body.expiration.map { Date(timeIntervalSince1970: $0) }, priority: body.priority, createdAt: now,
            traceParent: TraceParent.current(), fcmMessage: fcmMessage)
        let result = try await settings.storage(context, "the notification was not recorded") {
            try await store.recordNotification(notification, devices: devices)
        }
        if case .recorded(let count) = result, count > 0 {
            if devices.contains(where: { $0.platform == .ios }) { signal?.signal() }
            if toAndroid { fcmSignal?.signal() }
        }
        return try answer(result, id: notificationID)
    }

    private func answer(_ result: NotificationRecordResult, id: String) throws -> Response {
        switch result {
        case .recorded(let devices):
            return try ResponseBodies.response(SendAccepted(notificationId: id, devices: devices), status: .accepted)
        case .recordedBefore(let devices):
            return try ResponseBodies.response(SendAccepted(notificationId: id, devices: devices))
        case .otherUser:
            throw Problem(
                .notificationOfAnotherUser, "notification \(id) is recorded for another user; give each notification its own id",
                errors: [("/notificationId", "recorded for another user")])
        }
    }
}

extension NotificationReport {
    /// The report of `stored`.
    init(_ stored: StoredNotification) {
        self.init(
            notificationId: stored.notification.notificationID, user: stored.notification.user, category: stored.notification.category,
            sentAt: stored.notification.createdAt.timeIntervalSince1970,
            devices: stored.sends.map {
                NotificationDevice(
                    token: $0.token, platform: $0.platform.rawValue, state: $0.state.rawValue, status: $0.status, reason: $0.reason,
                    attempts: $0.attempts)
            })
    }
}
