public import ActionableCore

/// The stable keys of the strings a person reads, the same in the generated code and in the
/// String Catalog: `<category>.<action>.title`, `.button`, `.placeholder`,
/// `<category>.hiddenPreviewsBodyPlaceholder` and `<category>.summaryFormat`.
public enum LocalizationKeys {
    public static func title(_ category: CategoryID, _ action: ActionID) -> String { "\(category).\(action).title" }
    public static func button(_ category: CategoryID, _ action: ActionID) -> String { "\(category).\(action).button" }
    public static func placeholder(_ category: CategoryID, _ action: ActionID) -> String { "\(category).\(action).placeholder" }
    public static func hiddenPreviewsBodyPlaceholder(_ category: CategoryID) -> String { "\(category).hiddenPreviewsBodyPlaceholder" }
    public static func summaryFormat(_ category: CategoryID) -> String { "\(category).summaryFormat" }
}

/// The translators' comments of those strings, the same in the generated code and in the
/// String Catalog.
enum LocalizationComments {
    static func title(_ category: CategoryID, _ action: ActionID) -> String { "Title of the \(action) action of \(category) notifications" }
    static func button(_ category: CategoryID, _ action: ActionID) -> String {
        "Send button of the \(action) text field of \(category) notifications"
    }
    static func placeholder(_ category: CategoryID, _ action: ActionID) -> String {
        "Placeholder of the \(action) text field of \(category) notifications"
    }
    static func hiddenPreviewsBodyPlaceholder(_ category: CategoryID) -> String {
        "Placeholder of \(category) notifications when previews are hidden"
    }
    static func summaryFormat(_ category: CategoryID) -> String { "Summary of grouped \(category) notifications" }
}

extension TextInput {
    /// The send button's title, "Send" where the file gives none.
    var buttonOrDefault: LocalizedString { button ?? .plain("Send") }
}

extension NotificationCategory {
    /// `` `id`: description `` on one line, for the generated type's doc comment.
    var docSummary: String {
        "`\(id.rawValue)`" + (description.map { ": " + $0.split(whereSeparator: \.isNewline).joined(separator: " ") } ?? "")
    }
}
