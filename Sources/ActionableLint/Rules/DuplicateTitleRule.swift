public import ActionableCore

/// Two buttons with the same text in one notification cannot be told apart.
public struct DuplicateTitleRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_title",
        summary: "two actions of a category with the same title in one locale",
        severity: .warning,
        triggering: [
            "category: invite\nactions:\n  - { id: accept, title: OK }\n  - { id: confirm, title: ↓ok }\n",
            Example(
                "category: invite\nactions:\n  - { id: a, title: { en: Yes, de: Ja } }\n"
                    + "  - { id: b, title: { en: Sure, de: ↓Ja } }\n"),
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - { id: accept, title: Accept }\n  - { id: decline, title: Decline }\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        // At most 10 actions: comparing pairs costs less than hashing every title.
        var violations: [Violation] = []
        let actions = category.actions
        for later in actions.indices {
            for (locale, value) in actions[later].title.values where !value.allSatisfy(\.isWhitespace) {
                guard
                    let earlier = actions[..<later].firstIndex(where: { action in
                        action.id != actions[later].id && action.title.values.contains { $0.locale == locale && Self.same($0.value, value) }
                    })
                else { continue }
                let pointer = "/actions/\(later)/title" + (locale.map { "/" + SourceMap.escape($0) } ?? "")
                let inLocale = locale.map { " in \($0)" } ?? ""
                violations.append(
                    Violation(
                        file.sourceMap.location(of: pointer),
                        "action \"\(actions[later].id)\" has the same title\(inLocale) as \"\(actions[earlier].id)\" (\"\(value)\"); "
                            + "give each button distinct text"))
            }
        }
        return violations
    }

    /// Equal ignoring case; lengths are compared first so that most pairs cost no allocation.
    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && (a == b || a.lowercased() == b.lowercased())
    }
}
