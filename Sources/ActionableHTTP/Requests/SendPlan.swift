import ActionableCore
import ActionablePayload
import Foundation

/// A `POST /v1/send` body read into what the payload builder takes: the `aps` dictionary, the
/// custom keys in order, and the push type (background when nothing is shown). Values APNs
/// would refuse are a 400 naming the member.
struct SendPlan {
    var aps: APS
    var fields: [(String, JSONValue)]
    var pushType: PushType

    init(_ body: SendRequest, catalog: Catalog) throws {
        var aps = APS()
        switch body.alert {
        case .text(let text)?: aps.alert = .body(text)
        case .fields(let title, let subtitle, let body)?:
            guard title != nil || subtitle != nil || body != nil else {
                throw Problem(.invalidRequest, "an alert object has a title, a subtitle or a body", errors: [("/alert", "empty")])
            }
            aps.alert = .fields(APS.AlertFields(title: title, subtitle: subtitle, body: body))
        case nil: break
        }
        aps.sound = body.sound.map { .named($0) }
        aps.threadID = body.threadId
        if case .count(let count)? = body.badge {
            guard count >= 0 else { throw Problem(.invalidRequest, "a badge is 0 or more (0 removes it)", errors: [("/badge", "negative")]) }
            aps.badge = count
        }
        if let collapseID = body.collapseId, collapseID.isEmpty || collapseID.utf8.count > 64 {
            throw Problem(.invalidRequest, "collapseId is 1 to 64 bytes (apns-collapse-id)", errors: [("/collapseId", "not 1–64 bytes")])
        }
        if let priority = body.priority, ![1, 5, 10].contains(priority) {
            throw Problem(.invalidRequest, "priority is 10 (at once), 5 (power-saving) or 1 (lowest)", errors: [("/priority", "not 1, 5 or 10")])
        }
        if let expiration = body.expiration, !expiration.isFinite || expiration < 0 || expiration > 4_102_444_800 {
            throw Problem(.invalidRequest, "expiration is a Unix time in seconds (0 tries once)", errors: [("/expiration", "not a Unix time")])
        }
        // Nothing shown, played or counted: a background push that wakes the app.
        let shows = aps.alert != nil || aps.sound != nil || body.badge != nil
        if !shows { aps.contentAvailable = true }
        if body.mutableContent == true {
            guard aps.alert != nil else {
                throw Problem(
                    .invalidRequest, "mutableContent needs an alert: iOS runs a notification service extension only for one it shows",
                    errors: [("/mutableContent", "no alert")])
            }
            aps.mutableContent = true
        }
        self.aps = aps
        self.pushType = shows ? .alert : .background
        self.fields = (body.payload ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// What the FCM data message carries beside the payload, from the same request: the alert's
    /// title and body (a subtitle joins the body's first line, as Android has no subtitle), the
    /// notification's id, the badge as it is sent, `priority` 10 (or none) → high, 5 or 1 →
    /// normal, `expiration` → a time to live within FCM's four weeks, `collapseId` → the
    /// collapse key.
    func fcmOptions(_ body: SendRequest, notificationID: String, badge: Int?, now: Date) -> FCMOptions {
        var title: String?
        var text: String?
        switch body.alert {
        case .text(let only)?: text = only
        case .fields(let heading, let subtitle, let rest)?:
            title = heading
            let joined = [subtitle, rest].compactMap { $0 }.joined(separator: "\n")
            text = joined.isEmpty ? nil : joined
        case nil: break
        }
        let ttl = body.expiration.map { Int(min(max($0 - now.timeIntervalSince1970, 0), 2_419_200).rounded(.down)) }
        return FCMOptions(
            title: title, body: text, priority: (body.priority ?? 10) == 10 ? .high : .normal, timeToLive: ttl,
            collapseKey: body.collapseId, notificationID: notificationID, badge: badge)
    }
}

extension Problem {
    /// The answer to a notification the payload builder refused: 422, naming the member.
    init(_ error: PayloadError) {
        let pointer: String
        let type: ProblemType
        switch error.code {
        case .unknownCategory, .retiredCategory: (type, pointer) = (.catalogMismatch, "/category")
        case .payloadMismatch, .customPayloadNotAnObject: (type, pointer) = (.catalogMismatch, "/payload")
        case .notificationOfAnotherUser: (type, pointer) = (.notificationOfAnotherUser, "/notificationId")
        default: (type, pointer) = (.notificationRefused, "")
        }
        // A payload key's problem points at the key itself (`/payload/seats`).
        let pointers = error.code == .payloadMismatch ? error.pointers.map { pointer + $0 } : error.messages.map { _ in pointer }
        self.init(type, error.messages.joined(separator: "; "), errors: Array(zip(pointers, error.messages)))
    }
}
