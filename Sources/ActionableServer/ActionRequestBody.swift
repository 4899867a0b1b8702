import ActionableCore

/// The body of `POST /v1/actions` (docs/http-api.md).
struct ActionRequestBody: Decodable, Sendable {
    var category: String
    var action: String
    var actionToken: String?
    var notificationId: String?
    var userText: String?
    /// Decoded as a dictionary, which the decoder reads directly (a `JSONValue` would first try
    /// each scalar type); its keys are put in order afterwards.
    var payload: [String: JSONValue]?
}
