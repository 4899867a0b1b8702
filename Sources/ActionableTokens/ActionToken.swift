public import ActionableCore
public import Foundation

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
    /// The digest of the payload it was minted for (`pld`); `nil` in tokens of older versions.
    public let payload: PayloadDigest?
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

    /// Checks that `payload` is the payload the token was minted for.
    /// - Returns: `false` when the token binds no payload (minted by an older version), which
    ///   the caller refuses unless it accepts unbound payloads.
    /// - Throws: ``ActionTokenError/Code/payloadMismatch`` when the digests differ.
    public func verifyPayload(_ payload: PayloadDigest) throws(ActionTokenError) -> Bool {
        guard let bound = self.payload else { return false }
        guard bound.matches(payload) else {
            throw ActionTokenError(
                .payloadMismatch,
                "the payload differs from the one the notification was sent with: its digest is \(payload), the token's \(bound)")
        }
        return true
    }
}
