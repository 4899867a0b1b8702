import ActionableCore

/// Android shows at most 3 actions on a notification: the generated Kotlin adds the first three
/// of the default context, and the rest never appear there.
public struct AndroidTooManyActionsRule: FileRule {
    public init() {}
    /// The most actions Android shows on one notification.
    public static let maximumActions = 3

    public static let description = RuleDescription(
        identifier: "android_too_many_actions",
        summary: "more than 3 actions in the default context, which Android cannot show",
        severity: .warning,
        triggering: [
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]
            contexts:
              default: [a, b, c, ↓d]
              minimal: [a, b]
            """
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D, retired: true}]
            """,
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]
            contexts:
              default: [a, b, c]
              minimal: [a, b]
            """,
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        let shown = category.contexts.default
        guard shown.count > Self.maximumActions else { return [] }
        let dropped = shown.dropFirst(Self.maximumActions).map(\.rawValue).joined(separator: ", ")
        // Where the fourth action is named: in the default context when the file writes it,
        // otherwise at the action itself.
        var pointer = "/contexts/default/\(Self.maximumActions)"
        if file.sourceMap.location(of: pointer) == file.sourceMap.location(of: "/contexts/default"),
            let index = category.actions.firstIndex(where: { $0.id == shown[Self.maximumActions] })
        {
            pointer = "/actions/\(index)"
        }
        return [
            Violation(
                file.sourceMap.location(of: pointer),
                "the default context has \(shown.count) actions; Android shows at most \(Self.maximumActions), so \(dropped) "
                    + "will not appear there (order the default context so the three that matter come first)")
        ]
    }
}
