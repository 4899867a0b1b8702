/// Why a notification response cannot be reported: each case names what is missing and where
/// it should come from, so that a fault in the backend's payload is found before any request.
public enum ActionReportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `userInfo` has no `actionToken`.
    case missingActionToken(category: String)
    /// `userInfo["actionToken"]` is not a non-empty string.
    case actionTokenNotAString(found: String)
    /// Neither the response's category identifier nor `aps.category` names a category.
    case missingCategory
    /// The action identifier is empty.
    case missingAction
    /// A custom key's value is not JSON (a date, data, or an object of another kind).
    case notJSON(key: String, found: String)

    public var description: String {
        switch self {
        case .missingActionToken(let category):
            return "the \(category) notification's payload has no \"actionToken\": the backend must add one "
                + "(PayloadBuilder's actionToken:, or `actionable payload`) so that the server can tell whose answer it is"
        case .actionTokenNotAString(let found):
            return "the payload's \"actionToken\" must be the token string the backend minted, found \(found)"
        case .missingCategory:
            return "the notification names no category: the response's categoryIdentifier is empty and the payload has no "
                + "aps.category; the backend must set aps.category"
        case .missingAction:
            return "the response's action identifier is empty: pass response.actionIdentifier as it is"
        case .notJSON(let key, let found):
            return "payload key \"\(key)\" holds \(found), which is not JSON; only strings, numbers, booleans, null, arrays "
                + "and dictionaries can be sent"
        }
    }
}
