import ActionableCore

/// iOS shows at most 10 actions of a category.
public struct TooManyActionsRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "too_many_actions",
        summary: "more than 10 actions in a category",
        severity: .error,
        triggering: [
            Example(
                "category: many\ncontexts: { default: [a0], minimal: [a0] }\nactions:\n"
                    + (0..<10).map { "  - { id: a\($0), title: A\($0) }\n" }.joined() + "  - ↓{ id: a10, title: A10 }\n")
        ],
        nonTriggering: [
            Example(
                "category: many\ncontexts: { default: [a0], minimal: [a0] }\nactions:\n"
                    + (0..<10).map { "  - { id: a\($0), title: A\($0) }\n" }.joined()),
            // Retired actions are not registered, so they do not count.
            Example(
                "category: many\ncontexts: { default: [a0], minimal: [a0] }\nactions:\n"
                    + (0..<10).map { "  - { id: a\($0), title: A\($0) }\n" }.joined()
                    + "  - { id: old, title: Old, retired: true }\n"),
        ]
    )

    /// Counts the actions an app registers: retired ones are not.
    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        let registered = category.actions.indices.filter { !category.actions[$0].retired }
        guard registered.count > NotificationCategory.maximumActions else { return [] }
        let excess = registered.count - NotificationCategory.maximumActions
        return [
            Violation(
                file.sourceMap.location(of: "/actions/\(registered[NotificationCategory.maximumActions])"),
                "category \"\(category.id)\" has \(registered.count) actions that are not retired; iOS shows at most "
                    + "\(NotificationCategory.maximumActions), so remove or retire \(excess)")
        ]
    }
}
