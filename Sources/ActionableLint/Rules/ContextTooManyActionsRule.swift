public import ActionableCore

/// The default context shows at most 4 actions, the minimal context at most 2.
public struct ContextTooManyActionsRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "context_too_many_actions",
        summary: "`default` over 4, or `minimal` over 2",
        severity: .error,
        triggering: [
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}, {id: e, title: E}]
            contexts:
              default: [a, b, c, d, ↓e]
              minimal: [a, b, ↓c]
            """
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}, {id: e, title: E}]
            contexts:
              default: [a, b, c, d]
              minimal: [a, b]
            """,
            Example(
                "category: invite\nactions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}, "
                    + "{id: e, title: E}]\n"),
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        let contexts = category.contexts
        if contexts.default.count > Contexts.maximumDefault {
            violations.append(
                Violation(
                    file.sourceMap.location(of: "/contexts/default/\(Contexts.maximumDefault)"),
                    "the default context lists \(contexts.default.count) actions; iOS shows at most "
                        + "\(Contexts.maximumDefault) in alerts"))
        }
        if contexts.minimal.count > Contexts.maximumMinimal {
            violations.append(
                Violation(
                    file.sourceMap.location(of: "/contexts/minimal/\(Contexts.maximumMinimal)"),
                    "the minimal context lists \(contexts.minimal.count) actions; iOS shows at most "
                        + "\(Contexts.maximumMinimal) where space is short"))
        }
        return violations
    }
}
