/// The body of `POST /v1/notifications` (docs/http-api.md).
struct NotificationRecordBody: Decodable, Sendable {
    var user: String
    var notificationId: String
    var category: String
}

/// The body of `POST /v1/badge/read`: `notificationIds` or `all`, and `user` from the backend.
struct BadgeReadBody: Decodable, Sendable {
    var notificationIds: [String]?
    var all: Bool?
    var user: String?
}
