public import ActionableCore

/// A destructive action that runs in the background without authentication can be triggered
/// from a locked phone by anyone holding it.
public struct DestructiveWithoutAuthenticationRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "destructive_without_authentication",
        summary: "a destructive background action without `authenticationRequired` (runs from a locked phone)",
        severity: .warning,
        triggering: [
            "category: invite\nactions:\n  - id: decline\n    title: Decline\n    ↓destructive: true\n"
        ],
        nonTriggering: [
            Example(
                "category: invite\nactions:\n  - id: decline\n    title: Decline\n    destructive: true\n"
                    + "    authenticationRequired: true\n"),
            Example(
                "category: invite\nactions:\n  - id: delete\n    title: Delete\n    destructive: true\n"
                    + "    activation: foreground\n"),
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        category.actions.enumerated().compactMap { index, action in
            guard action.destructive, action.activation == .background, !action.authenticationRequired else {
                return nil
            }
            return Violation(
                file.sourceMap.keyLocation(of: "/actions/\(index)/destructive"),
                "destructive action \"\(action.id)\" runs in the background from a locked phone; "
                    + "add authenticationRequired: true")
        }
    }
}
