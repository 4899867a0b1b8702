import Foundation

/// What an app sends when the user taps an action: the answer to one notification.
///
/// The app forwards `response.actionIdentifier` verbatim, so ``action`` is a declared action id
/// or one of Apple's ``ActionID/default`` (opened) and ``ActionID/dismiss`` (dismissed).
public struct ActionResponse: Hashable, Sendable {
    /// The notification's `aps.category`.
    public var category: CategoryID
    /// The action the user chose.
    public var action: ActionID
    /// The notification answered (the action token's `jti`).
    public var notificationID: String
    /// The user who answered (the action token's `sub`).
    public var user: String
    /// The text typed into a text-input action.
    public var userText: String?
    /// The notification's custom payload (keys outside `aps`).
    public var payload: [(String, JSONValue)]

    /// Creates a response.
    public init(
        category: CategoryID, action: ActionID, notificationID: String, user: String, userText: String? = nil,
        payload: [(String, JSONValue)] = []
    ) {
        self.category = category
        self.action = action
        self.notificationID = notificationID
        self.user = user
        self.userText = userText
        self.payload = payload
    }

    /// The value of a custom payload key.
    public subscript(payload key: String) -> JSONValue? {
        payload.first { $0.0 == key }?.1
    }

    public static func == (lhs: ActionResponse, rhs: ActionResponse) -> Bool {
        lhs.category == rhs.category && lhs.action == rhs.action && lhs.notificationID == rhs.notificationID
            && lhs.user == rhs.user && lhs.userText == rhs.userText && JSONValue.object(lhs.payload) == .object(rhs.payload)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(category)
        hasher.combine(action)
        hasher.combine(notificationID)
        hasher.combine(user)
        hasher.combine(userText)
        hasher.combine(JSONValue.object(payload))
    }
}
