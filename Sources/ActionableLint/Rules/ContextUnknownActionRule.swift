import ActionableCore

/// A context may only name actions the category declares.
public struct ContextUnknownActionRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "context_unknown_action",
        summary: "a context names an action the category does not declare",
        severity: .error,
        triggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: decline, title: Decline}]
            contexts:
              default: [accept, decline, ↓acept]
              minimal: [accept, ↓maybe]
            """,
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: decline, title: Decline}]
            contexts:
              default: [accept, decline]
            """,
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        guard file.sourceMap.contains("/contexts") else { return [] }
        let declared = Set(category.actions.map(\.id))
        let names = category.actions.map(\.id.rawValue)
        var violations: [Violation] = []
        for (context, ids) in [("default", category.contexts.default), ("minimal", category.contexts.minimal)] {
            let pointer = "/contexts/\(context)"
            guard file.sourceMap.contains(pointer) else { continue }
            for (index, id) in ids.enumerated() where !declared.contains(id) {
                violations.append(Violation(file.sourceMap.location(of: "\(pointer)/\(index)"),
                    "action \"\(id)\" is not declared in category \"\(category.id)\""
                        + Suggestion.didYouMean(id.rawValue, in: names)))
            }
        }
        return violations
    }
}
