public import ActionableCore

/// Listing an action twice in a context shows the same button twice (or iOS drops one).
public struct DuplicateContextEntryRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_context_entry",
        summary: "a context names one action twice",
        severity: .error,
        triggering: [
            Example(
                "category: invite\nactions: [{id: accept, title: Accept}, {id: decline, title: Decline}]\n"
                    + "contexts:\n  default: [accept, decline, ↓accept]\n  minimal: [accept, decline]\n")
        ],
        nonTriggering: [
            Example(
                "category: invite\nactions: [{id: accept, title: Accept}, {id: decline, title: Decline}]\n"
                    + "contexts:\n  default: [accept, decline]\n")
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        var violations: [Violation] = []
        for (context, pointer, ids) in file.writtenContexts(of: category) {
            var seen = Set<ActionID>()
            for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
                violations.append(
                    Violation(
                        file.sourceMap.location(of: "\(pointer)/\(index)"),
                        "the \(context) context lists action \"\(id)\" twice; remove one"))
            }
        }
        return violations
    }
}
