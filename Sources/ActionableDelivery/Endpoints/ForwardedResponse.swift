public import ActionableCore
public import ActionableWire
public import Foundation

/// The body of the call the forwarder makes (`ForwardedResponse` in `openapi.yaml`): the stored
/// response as the upstream receives it. An upstream written in Swift decodes it with
/// `JSONDecoder`; the forwarder writes it with ``bytes(of:id:receivedAt:)``, which embeds the
/// payload's stored text as it is.
public struct ForwardedResponse: Codable, Hashable, Sendable {
    /// The response id: the same as the `webhook-id` and `Idempotency-Key` headers.
    public var id: String
    /// The category identifier.
    public var category: String
    /// The action identifier, or Apple's default or dismiss identifier.
    public var action: String
    /// The notification answered.
    public var notificationId: String
    /// The user who answered.
    public var user: String
    /// The text typed into a text-input action; `null` otherwise (always present).
    @Nullable public var userText: String?
    /// The notification's custom payload.
    public var payload: JSONValue
    /// When the server received the response, in Unix seconds with a fraction.
    public var receivedAt: Double

    /// The call for `response`, stored under `id` at `receivedAt`.
    public init(_ response: ActionResponse, id: String, receivedAt: Date) {
        self.id = id
        category = response.category.rawValue
        action = response.action.rawValue
        notificationId = response.notificationID
        user = response.user
        userText = response.userText
        payload = .object(response.payload)
        self.receivedAt = receivedAt.timeIntervalSince1970
    }

    /// The call's JSON for `response`, as ``ForwardedResponse`` encodes it, written without a
    /// `JSONEncoder` and with the payload's text (`ActionResponse.payloadJSON`) as it was
    /// stored: a response read back from storage is forwarded without being parsed.
    public static func bytes(of response: ActionResponse, id: String, receivedAt: Date) -> [UInt8] {
        var text = "{\"id\":"
        JSONValue.writeString(id, to: &text)
        text += ",\"category\":"
        JSONValue.writeString(response.category.rawValue, to: &text)
        text += ",\"action\":"
        JSONValue.writeString(response.action.rawValue, to: &text)
        text += ",\"notificationId\":"
        JSONValue.writeString(response.notificationID, to: &text)
        text += ",\"user\":"
        JSONValue.writeString(response.user, to: &text)
        text += ",\"userText\":"
        if let userText = response.userText { JSONValue.writeString(userText, to: &text) } else { text += "null" }
        text += ",\"payload\":"
        text += response.payloadJSON
        text += ",\"receivedAt\":"
        text += JSONValue.double(receivedAt.timeIntervalSince1970).serialized()
        text += "}"
        return Array(text.utf8)
    }
}
