import ActionableCore

/// A button with no text cannot be tapped knowingly.
public struct EmptyTitleRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "empty_title",
        summary: "an empty or blank title or input button title, in any locale",
        severity: .error,
        triggering: [
            "category: invite\nactions:\n  - id: accept\n    title: ↓\"  \"\n",
            "category: invite\nactions:\n  - id: accept\n    title: { en: Accept, de: ↓\"\" }\n",
            "category: invite\nactions:\n  - id: reply\n    title: Reply\n    input: { button: ↓\" \" }\n",
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - id: reply\n    title: Reply\n    input: { button: Send, placeholder: \"\" }\n",
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        for (index, action) in category.actions.enumerated() {
            let base = "/actions/\(index)"
            if file.sourceMap.contains(base + "/title") {
                violations += blanks(action.title, at: base + "/title", what: "the title of action \"\(action.id)\"", file)
            }
            if let button = action.input?.button {
                violations += blanks(button, at: base + "/input/button",
                    what: "the input button title of action \"\(action.id)\"", file)
            }
        }
        return violations
    }

    private func blanks(_ text: LocalizedString, at pointer: String, what: String, _ file: CategoryFile) -> [Violation] {
        text.values.compactMap { locale, value in
            guard value.allSatisfy(\.isWhitespace) else { return nil }
            let place = locale.map { pointer + "/" + SourceMap.escape($0) } ?? pointer
            let inLocale = locale.map { " in \($0)" } ?? ""
            return Violation(file.sourceMap.location(of: place), "\(what) is empty\(inLocale); give it text a person can read")
        }
    }
}
