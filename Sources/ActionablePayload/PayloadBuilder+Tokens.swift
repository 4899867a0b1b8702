public import ActionableCore
public import ActionableTokens
public import Foundation

extension PayloadBuilder {
    /// Builds a payload and mints its action token in one call: the token binds `user`,
    /// `notificationID`, the category, `actions` when given, and the payload's digest (`pld`).
    /// Needs a builder made with `ActionTokens`.
    public func build<Custom: Encodable>(
        category: CategoryID, aps: APS = APS(), custom: Custom, user: String, notificationID: String,
        actions: [ActionID]? = nil, tokenLifetime: TimeInterval = 7 * 24 * 3600, pushType: PushType = .alert, now: Date = Date()
    ) async throws -> NotificationPayload {
        try await build(
            category: category, aps: aps, fields: Self.fields(of: custom), user: user, notificationID: notificationID,
            actions: actions, tokenLifetime: tokenLifetime, pushType: pushType, now: now)
    }

    /// Builds a payload from custom keys given as JSON values and mints its action token, bound
    /// to the payload as in ``build(category:aps:custom:user:notificationID:actions:tokenLifetime:pushType:now:)``.
    public func build(
        category: CategoryID, aps: APS = APS(), fields: [(String, JSONValue)], user: String, notificationID: String,
        actions: [ActionID]? = nil, tokenLifetime: TimeInterval = 7 * 24 * 3600, pushType: PushType = .alert, now: Date = Date()
    ) async throws -> NotificationPayload {
        guard let tokens else {
            throw PayloadError(.noTokens, ["minting an action token needs a PayloadBuilder made with ActionTokens"])
        }
        // Checked first, so that no token is minted for a payload that cannot be sent.
        _ = try build(category: category, aps: aps, fields: fields, actionToken: nil, pushType: pushType)
        let token = try await tokens.mint(
            user: user, notificationID: notificationID, category: category, actions: actions,
            payload: try payloadDigest(category: category, fields: fields), lifetime: tokenLifetime, now: now)
        return try build(category: category, aps: aps, fields: fields, actionToken: token, pushType: pushType)
    }

    /// The `pld` digest of `fields` as the payload of a `category` notification: for backends
    /// that mint tokens themselves (`ActionTokens.mint(user:notificationID:category:actions:payload:lifetime:now:)`).
    public func payloadDigest(category: CategoryID, fields: [(String, JSONValue)]) throws(PayloadError) -> PayloadDigest {
        PayloadDigest(payload: fields, schema: try self.category(category).payload)
    }

    /// The `pld` digest of `custom`'s encoded properties as the payload of a `category` notification.
    public func payloadDigest<Custom: Encodable>(category: CategoryID, custom: Custom) throws(PayloadError) -> PayloadDigest {
        try payloadDigest(category: category, fields: Self.fields(of: custom))
    }
}
