public import ActionableCore

/// The body of `POST /v1/actions` as it arrives, before the token is verified and the response
/// checked against the catalog (docs/http-api.md). Decoded with `JSONDecoder`; the fuzz target
/// `fuzz-action-request` feeds it arbitrary bytes.
public struct ActionRequestBody: Decodable, Sendable {
    /// The category identifier.
    public var category: String
    /// The action identifier, or Apple's default or dismiss identifier.
    public var action: String
    /// The notification's action token.
    public var actionToken: String?
    /// The notification id (required when tokens are off; must match the token's otherwise).
    public var notificationId: String?
    /// The text of a text-input action.
    public var userText: String?
    /// Decoded as a dictionary, which the decoder reads directly (a `JSONValue` would first try
    /// each scalar type); its keys are put in order afterwards.
    public var payload: [String: JSONValue]?

    /// The response it describes, for `notificationID` and `user` (from the verified token).
    public func response(notificationID: String, user: String) -> ActionResponse {
        ActionResponse(
            category: CategoryID(category), action: ActionID(action), notificationID: notificationID, user: user, userText: userText,
            payload: (payload ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
