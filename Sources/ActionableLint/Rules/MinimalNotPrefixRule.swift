public import ActionableCore

/// Since iOS 10 there are no contexts: where space is short iOS shows the first actions of the
/// display order, so a `minimal` context that is not that prefix shows differently than intended.
public struct MinimalNotPrefixRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "minimal_not_prefix",
        summary: "`minimal` is not the first actions of the display order (iOS 10+ shows the first two where space is short)",
        severity: .warning,
        triggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: maybe, title: Maybe}, {id: decline, title: Decline}]
            contexts:
              minimal: ↓[accept, decline]
            """
        ],
        nonTriggering: [
            """
            category: invite
            actions: [{id: accept, title: Accept}, {id: decline, title: Decline}, {id: maybe, title: Maybe}]
            contexts:
              minimal: [accept, decline]
            """
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        guard file.explicitContexts.contains(.minimal) else { return [] }
        let minimal = category.contexts.minimal
        let declared = Set(category.actions.map(\.id))
        // Unknown entries are context_unknown_action's to report.
        guard minimal.allSatisfy(declared.contains) else { return [] }
        let prefix = Array(category.actions.filter { !$0.retired }.prefix(minimal.count).map(\.id))
        guard minimal != prefix else { return [] }
        return [
            Violation(
                file.sourceMap.location(of: "/contexts/minimal"),
                "minimal context [\(minimal.map(\.rawValue).joined(separator: ", "))] is not the start of the display "
                    + "order; iOS 10+ shows [\(prefix.map(\.rawValue).joined(separator: ", "))] where space is short, "
                    + "so reorder the actions")
        ]
    }
}
