import ActionableCore
import Foundation

/// A verified action token: which user may answer which notification of which category.
public struct ActionToken: Hashable, Sendable {
    /// The notification it binds (`jti`).
    public let notificationID: String
    /// The user it binds (`sub`).
    public let user: String
    /// The category it binds (`cat`).
    public let category: CategoryID
    /// The actions it allows (`act`); `nil` allows every action.
    public let actions: [ActionID]?
    /// When it was issued (`iat`).
    public let issuedAt: Date
    /// When it expires (`exp`).
    public let expiresAt: Date

    /// Checks that the token covers an answer of `user` with `action` to `notificationID` in
    /// `category`. `notificationID` may be `nil` (the request left it to the token); `user`
    /// may be `nil` (no separate authentication).
    public func authorize(
        category: CategoryID, action: ActionID, notificationID: String? = nil, user: String? = nil
    ) throws(ActionTokenError) {
        guard category == self.category else {
            throw ActionTokenError(.wrongCategory, "the action token is for category \"\(self.category)\", not \"\(category)\"")
        }
        if let actions, !actions.contains(action) {
            throw ActionTokenError(
                .actionNotAllowed,
                "the action token does not allow action \"\(action)\"; it allows "
                    + actions.map(\.rawValue).joined(separator: ", "))
        }
        if let notificationID, notificationID != self.notificationID {
            throw ActionTokenError(.wrongNotification, "notificationId does not match the action token's notification")
        }
        if let user, user != self.user {
            throw ActionTokenError(.wrongUser, "the action token names another user than the authenticated one")
        }
    }
}
