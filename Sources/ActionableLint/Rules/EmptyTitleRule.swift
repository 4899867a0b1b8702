public import ActionableCore

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
            "category: invite\nactions:\n  - id: reply\n    title: Reply\n    input: { button: Send, placeholder: \"\" }\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        for (index, action) in category.actions.enumerated() {
            // Pointers are only built for violations.
            violations += blanks(
                action.title, at: { "/actions/\(index)/title" },
                what: "the title of action \"\(action.id)\"", file)
            if let button = action.input?.button {
                violations += blanks(
                    button, at: { "/actions/\(index)/input/button" },
                    what: "the input button title of action \"\(action.id)\"", file)
            }
        }
        return violations
    }

    private func blanks(
        _ text: LocalizedString, at pointer: () -> String, what: @autoclosure () -> String, _ file: CategoryFile
    ) -> [Violation] {
        var violations: [Violation] = []
        switch text {
        case .plain(let value):
            if value.allSatisfy(\.isWhitespace) { violations.append(violation(nil, pointer(), what(), file)) }
        case .localized(let entries):
            for entry in entries where entry.value.allSatisfy(\.isWhitespace) {
                violations.append(violation(entry.locale, pointer(), what(), file))
            }
        }
        return violations
    }

    private func violation(_ locale: String?, _ pointer: String, _ what: String, _ file: CategoryFile) -> Violation {
        let place = locale.map { pointer + "/" + SourceMap.escape($0) } ?? pointer
        let inLocale = locale.map { " in \($0)" } ?? ""
        return Violation(file.sourceMap.location(of: place), "\(what) is empty\(inLocale); give it text a person can read")
    }
}
