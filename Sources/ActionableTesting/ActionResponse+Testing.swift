public import ActionableCore
public import Foundation

extension ActionResponse {
    /// A tap on `action` of a `category` notification, for tests.
    ///
    /// ```swift
    /// let tap = ActionResponse.tap("invite", "accept", payload: ["inviteId": "42"])
    /// #expect(try await router.test(tap) == .done)
    /// ```
    public static func tap(
        _ category: CategoryID, _ action: ActionID, user: String = "test-user",
        notificationID: String = UUID().uuidString, text: String? = nil, payload: KeyValuePairs<String, JSONValue> = [:]
    ) -> ActionResponse {
        ActionResponse(
            category: category, action: action, notificationID: notificationID, user: user, userText: text,
            payload: payload.map { ($0.key, $0.value) })
    }

    /// The user opened the notification (Apple's default action).
    public static func opened(
        _ category: CategoryID, user: String = "test-user", notificationID: String = UUID().uuidString,
        payload: KeyValuePairs<String, JSONValue> = [:]
    ) -> ActionResponse {
        tap(category, .default, user: user, notificationID: notificationID, payload: payload)
    }

    /// The user dismissed the notification (only sent for categories with `customDismissAction`).
    public static func dismissed(
        _ category: CategoryID, user: String = "test-user", notificationID: String = UUID().uuidString,
        payload: KeyValuePairs<String, JSONValue> = [:]
    ) -> ActionResponse {
        tap(category, .dismiss, user: user, notificationID: notificationID, payload: payload)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
