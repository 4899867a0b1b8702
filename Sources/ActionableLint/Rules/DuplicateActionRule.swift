public import ActionableCore

/// One action id twice in a category: iOS would report both buttons with the same identifier.
public struct DuplicateActionRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_action",
        summary: "one action id twice in a category",
        severity: .error,
        triggering: [
            """
            category: invite
            actions:
              - id: accept
                title: Accept
              - id: ↓accept
                title: Accept again
            """
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - id: accept\n    title: Accept\n  - id: decline\n    title: Decline\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var firstIndex: [ActionID: Int] = [:]
        var violations: [Violation] = []
        for (index, action) in category.actions.enumerated() {
            if let first = firstIndex[action.id] {
                let firstLine = file.sourceMap.location(of: "/actions/\(first)/id").line
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "/actions/\(index)/id"),
                        "action \"\(action.id)\" is already declared at line \(firstLine); rename or remove one"))
            } else {
                firstIndex[action.id] = index
            }
        }
        return violations
    }
}
