extension Catalog {
    /// Checks `response` against the catalog: the category exists, the action is declared (or
    /// is Apple's default, or dismiss where the category sends it), text only on a text-input
    /// action and within its `maxLength` (in characters as a person counts them), and the payload
    /// matches the category's schema. Keys `aps` and `actionToken` in the payload are ignored:
    /// apps often forward the whole `userInfo`.
    ///
    /// - Returns: the category, and the declared action (`nil` for Apple's identifiers).
    @discardableResult
    public func validate(
        _ response: ActionResponse
    ) throws(ActionResponseError)
        -> (category: NotificationCategory, action: NotificationAction?)
    {
        guard let category = self[response.category] else {
            let hint = suggestion(for: response.category).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw ActionResponseError(
                .unknownCategory, pointer: "/category",
                "category \"\(response.category)\" is not in the catalog\(hint)")
        }
        let action: NotificationAction?
        switch response.action {
        case .default:
            action = nil
        case .dismiss:
            guard category.options.contains(.customDismissAction) else {
                throw ActionResponseError(
                    .dismissNotEnabled, pointer: "/action",
                    "category \"\(category.id)\" does not have the customDismissAction option, so iOS never sends "
                        + "the dismiss action for it; add the option to the category file")
            }
            action = nil
        default:
            guard let declared = category.action(response.action) else {
                let names = category.actions.map(\.id.rawValue)
                let hint = Suggestion.didYouMean(response.action.rawValue, in: names)
                let list = names.isEmpty ? "it declares no actions" : "declared: \(names.joined(separator: ", "))"
                throw ActionResponseError(
                    .unknownAction, pointer: "/action",
                    "action \"\(response.action)\" is not declared in category \"\(category.id)\"\(hint); \(list)")
            }
            action = declared
        }
        if let text = response.userText {
            guard let input = action?.input else {
                throw ActionResponseError(
                    .textNotAllowed, pointer: "/userText",
                    "action \"\(response.action)\" of category \"\(category.id)\" is not a text-input action; "
                        + "send userText only for actions with input")
            }
            let length = text.count
            guard length <= input.maxLength else {
                throw ActionResponseError(
                    .textTooLong, pointer: "/userText",
                    "userText is \(length) characters long; action \"\(response.action)\" accepts at most "
                        + "\(input.maxLength)")
            }
        }
        let checked = response.payload.filter { !PayloadSchema.reservedKeys.contains($0.0) }
        let violations = category.payload.violations(of: checked)
        if !violations.isEmpty {
            throw ActionResponseError(
                .payloadMismatch,
                errors: violations.map { ("/payload" + $0.pointer, $0.message) })
        }
        return (category, action)
    }
}
