public import ActionableCore

/// A retired action is no longer registered by apps, so a context cannot show it.
public struct RetiredInContextRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "retired_in_context",
        summary: "a context names a retired action (retired actions are no longer registered, so no context can show them)",
        severity: .error,
        triggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: maybe, title: Maybe, retired: true}, {id: decline, title: Decline}]
            contexts:
              default: [accept, ↓maybe, decline]
              minimal: [accept, decline]
            """
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: maybe, title: Maybe, retired: true}, {id: decline, title: Decline}]
            contexts:
              default: [accept, decline]
            """,
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: maybe, title: Maybe, retired: true}, {id: decline, title: Decline}]
            """,
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        let retired = Set(category.actions.filter(\.retired).map(\.id))
        guard !retired.isEmpty else { return [] }
        var violations: [Violation] = []
        for (context, pointer, ids) in file.writtenContexts(of: category) {
            for (index, id) in ids.enumerated() where retired.contains(id) {
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "\(pointer)/\(index)"),
                        "action \"\(id)\" is retired, so apps no longer register it and the \(context) context "
                            + "cannot show it; remove it from the context (its taps from older app versions are still accepted)"))
            }
        }
        return violations
    }
}
