public import ActionableCore

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
            """
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: decline, title: Decline}]
            contexts:
              default: [accept, decline]
            """
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        for (context, pointer, ids) in file.writtenContexts(of: category) {
            for (index, id) in ids.enumerated() where !category.actions.contains(where: { $0.id == id }) {
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "\(pointer)/\(index)"),
                        "action \"\(id)\" is not declared in category \"\(category.id)\""
                            + Suggestion.didYouMean(id.rawValue, in: category.actions.map(\.id.rawValue))))
            }
        }
        return violations
    }
}
