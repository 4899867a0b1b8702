import ActionableCore

/// Two buttons with the same text in one notification cannot be told apart.
public struct DuplicateTitleRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_title",
        summary: "two actions of a category with the same title in one locale",
        severity: .warning,
        triggering: [
            "category: invite\nactions:\n  - { id: accept, title: OK }\n  - { id: confirm, title: ↓ok }\n",
            Example("category: invite\nactions:\n  - { id: a, title: { en: Yes, de: Ja } }\n"
                + "  - { id: b, title: { en: Sure, de: ↓Ja } }\n"),
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - { id: accept, title: Accept }\n  - { id: decline, title: Decline }\n",
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var seen: [String: ActionID] = [:]
        var violations: [Violation] = []
        for (index, action) in category.actions.enumerated() {
            let pointer = "/actions/\(index)/title"
            guard file.sourceMap.contains(pointer) else { continue }
            for (locale, value) in action.title.values {
                let key = (locale ?? "") + "\u{0}" + value.lowercased()
                guard !value.allSatisfy(\.isWhitespace) else { continue }  // empty_title's to report
                if let first = seen[key], first != action.id {
                    let place = locale.map { pointer + "/" + SourceMap.escape($0) } ?? pointer
                    let inLocale = locale.map { " in \($0)" } ?? ""
                    violations.append(Violation(file.sourceMap.location(of: place),
                        "action \"\(action.id)\" has the same title\(inLocale) as \"\(first)\" (\"\(value)\"); "
                            + "give each button distinct text"))
                } else if seen[key] == nil {
                    seen[key] = action.id
                }
            }
        }
        return violations
    }
}
