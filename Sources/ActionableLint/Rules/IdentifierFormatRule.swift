public import ActionableCore

/// Category and action identifiers must match `^[A-Za-z][A-Za-z0-9._-]{0,63}$`.
public struct IdentifierFormatRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "identifier_format",
        summary: "a category or action id outside `^[A-Za-z][A-Za-z0-9._-]{0,63}$`",
        severity: .error,
        triggering: [
            Example(files: [("invite.yaml", "category: ↓invite now\n")]),
            "category: invite\nactions:\n  - id: ↓1st\n    title: First\n",
            "category: invite\nactions:\n  - id: ↓\"accept!\"\n    title: Accept\n",
        ],
        nonTriggering: [
            "category: chat.message-v2_beta\nactions:\n  - id: markRead\n    title: Read\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        if !IdentifierSyntax.isValid(category.id.rawValue) {
            violations.append(
                Violation(
                    file.sourceMap.location(of: "/category"),
                    "category id \"\(category.id)\" must start with a letter and use only letters, digits, '.', '_' "
                        + "and '-', at most 64 characters"))
        }
        for (index, action) in category.actions.enumerated() where !IdentifierSyntax.isValid(action.id.rawValue) {
            violations.append(
                Violation(
                    file.sourceMap.location(of: "/actions/\(index)/id"),
                    "action id \"\(action.id)\" must start with a letter and use only letters, digits, '.', '_' "
                        + "and '-', at most 64 characters"))
        }
        return violations
    }
}
