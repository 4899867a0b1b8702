public import ActionableCore

/// Android shows at most three actions on a notification. A category with more names the three in
/// `android: { actions: […] }`; without it, Android gets the first three of the default context's
/// order and the rest never appear there. The names given must be registered actions, at most three.
///
/// An Android rule: it runs only for a catalog that targets Android (`platforms: [ios, android]` in
/// `.actionable-lint.yml`, or any category with `android:` keys when the file does not say), so an
/// iOS-only catalog with four actions — which iOS shows — lints clean.
public struct AndroidTooManyActionsRule: FileRule {
    public init() {}

    public static let description = RuleDescription(
        identifier: "android_too_many_actions",
        summary: "more than 3 actions and no `android.actions` choosing the three Android shows",
        severity: .warning,
        triggering: [
            """
            category: invite
            actions: [{id: a, title: A, android: {icon: ic_a}}, {id: b, title: B}, {id: c, title: C}, ↓{id: d, title: D}]
            """,
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]
            android: { actions: [a, b, ↓e] }
            """,
        ],
        nonTriggering: [
            // iOS only (no android: keys anywhere): iOS shows four actions in the default context.
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]
            """,
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D, retired: true}]
            """,
            """
            category: invite
            actions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]
            android: { actions: [a, b, d] }
            """,
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        let registered = category.registeredActions
        if let chosen = category.androidActionIDs {
            var violations: [Violation] = []
            for (index, id) in chosen.enumerated() where !registered.contains(where: { $0.id == id }) {
                let retired = category.action(id)?.retired == true
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "/android/actions/\(index)"),
                        retired
                            ? "android.actions names \"\(id)\", which is retired: apps no longer show it; choose a registered action"
                            : "android.actions names \"\(id)\", which the category does not declare"
                                + Suggestion.didYouMean(id.rawValue, in: registered.map(\.id.rawValue))))
            }
            if chosen.count > NotificationCategory.maximumAndroidActions {
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "/android/actions/\(NotificationCategory.maximumAndroidActions)"),
                        "android.actions lists \(chosen.count) actions; Android shows at most \(NotificationCategory.maximumAndroidActions)"))
            }
            return violations
        }
        guard registered.count > NotificationCategory.maximumAndroidActions else { return [] }
        let shown = Set(category.androidActions.map(\.id))
        let dropped = registered.filter { !shown.contains($0.id) }
        let first = category.actions.firstIndex { $0.id == dropped.first?.id } ?? NotificationCategory.maximumAndroidActions
        return [
            Violation(
                file.sourceMap.location(of: "/actions/\(first)"),
                "category \"\(category.id)\" has \(registered.count) actions; Android shows \(NotificationCategory.maximumAndroidActions), "
                    + "so \(dropped.map(\.id.rawValue).joined(separator: ", ")) would not appear there: name the three in "
                    + "android: { actions: [...] }")
        ]
    }
}
