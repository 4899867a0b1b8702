import ActionableCore

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
            ]),
        ],
        nonTriggering: [
            Example(files: [
                ("invite.yaml", "category: invite\nactions:\n  - id: invite.accept\n    title: Accept\n"),
                ("friend.yaml", "category: friend\nactions:\n  - id: friend.accept\n    title: Accept\n"),
            ]),
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        var uses: [ActionID: [(category: CategoryID, location: SourceLocation)]] = [:]
        for (file, category) in files {
            var seen = Set<ActionID>()  // a duplicate within one category is duplicate_action's
            for (index, action) in category.actions.enumerated() where seen.insert(action.id).inserted {
                uses[action.id, default: []].append((category.id, file.sourceMap.location(of: "/actions/\(index)/id")))
            }
        }
        var violations: [Violation] = []
        for (id, places) in uses {
            let categories = Set(places.map(\.category))
            guard categories.count > 1 else { continue }
            for place in places {
                let others = categories.subtracting([place.category]).map(\.rawValue).sorted()
                violations.append(Violation(place.location,
                    "action id \"\(id)\" is also used in \(others.map { "\"\($0)\"" }.joined(separator: ", ")); "
                        + "Apple asks for app-wide unique action ids, e.g. \"\(place.category).\(id)\""))
            }
        }
        return violations
    }
}
