public import ActionableCore

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
                    + (0..<10).map { "  - { id: a\($0), title: A\($0) }\n" }.joined())
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        guard category.actions.count > NotificationCategory.maximumActions else { return [] }
        return [
            Violation(
                file.sourceMap.location(of: "/actions/\(NotificationCategory.maximumActions)"),
                "category \"\(category.id)\" has \(category.actions.count) actions; iOS shows at most "
                    + "\(NotificationCategory.maximumActions), so remove \(category.actions.count - NotificationCategory.maximumActions)")
        ]
    }
}
