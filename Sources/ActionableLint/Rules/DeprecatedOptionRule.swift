public import ActionableCore

/// `allowAnnouncement` has been ignored since iOS 15 (announcing is a user setting now).
public struct DeprecatedOptionRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "deprecated_option",
        summary: "`allowAnnouncement`",
        severity: .warning,
        triggering: ["category: invite\noptions: [customDismissAction, ↓allowAnnouncement]\n"],
        nonTriggering: ["category: invite\noptions: [customDismissAction, allowInCarPlay]\n"]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        guard category.options.contains(.allowAnnouncement) else { return [] }
        return [
            Violation(
                file.sourceMap.location(of: "/options/@allowAnnouncement"),
                "allowAnnouncement is ignored since iOS 15, where announcing is the user's setting; remove it")
        ]
    }
}
