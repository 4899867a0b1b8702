import ActionableCore

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
