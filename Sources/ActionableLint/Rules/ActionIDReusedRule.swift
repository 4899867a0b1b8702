public import ActionableCore

/// Apple asks for action identifiers that are unique across the app.
public struct ActionIDReusedRule: CatalogRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "action_id_reused",
        summary: "one action id in several categories (Apple asks for app-wide unique ids)",
        severity: .warning,
        triggering: [
            Example(files: [
                ("invite.yaml", "category: invite\nactions:\n  - id: ↓accept\n    title: Accept\n"),
                ("friend.yaml", "category: friend\nactions:\n  - id: ↓accept\n    title: Accept\n"),
            ])
        ],
        nonTriggering: [
            Example(files: [
                ("invite.yaml", "category: invite\nactions:\n  - id: invite.accept\n    title: Accept\n"),
                ("friend.yaml", "category: friend\nactions:\n  - id: friend.accept\n    title: Accept\n"),
            ])
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        // Where each id is used: (file, action) indices; locations are only looked up for
        // violations, which are rare.
        var firstUse: [ActionID: (file: Int, action: Int)] = [:]
        var reused: [ActionID: [(file: Int, action: Int)]] = [:]
        for (fileIndex, entry) in files.enumerated() {
            var seen = Set<ActionID>()  // a duplicate within one category is duplicate_action's
            for (actionIndex, action) in entry.category.actions.enumerated() where seen.insert(action.id).inserted {
                if let first = firstUse[action.id] {
                    reused[action.id, default: [first]].append((fileIndex, actionIndex))
                } else {
                    firstUse[action.id] = (fileIndex, actionIndex)
                }
            }
        }
        var violations: [Violation] = []
        for (id, uses) in reused {
            let categories = Set(uses.map { files[$0.file].category.id })
            guard categories.count > 1 else { continue }
            for use in uses {
                let category = files[use.file].category.id
                let others = categories.subtracting([category]).map(\.rawValue).sorted()
                violations.append(
                    Violation(
                        files[use.file].file.sourceMap.location(of: "/actions/\(use.action)/id"),
                        "action id \"\(id)\" is also used in \(others.map { "\"\($0)\"" }.joined(separator: ", ")); "
                            + "Apple asks for app-wide unique action ids, e.g. \"\(category).\(id)\""))
            }
        }
        return violations
    }
}
