import ActionableCore

/// The body of `POST /v1/actions` (SPEC §3).
struct ActionRequestBody: Decodable, Sendable {
    var category: String
    var action: String
    var actionToken: String?
    var notificationId: String?
    var userText: String?
    var payload: JSONValue?
}
