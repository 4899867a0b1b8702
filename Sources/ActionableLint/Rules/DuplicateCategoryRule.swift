import ActionableCore

/// One category id declared by two files: the backend's `aps.category` would be ambiguous.
public struct DuplicateCategoryRule: CatalogRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_category",
        summary: "two files declare one category id (reported at both)",
        severity: .error,
        triggering: [
            Example(files: [("invite.yaml", "category: ↓invite\n"), ("invite.json", "{\"category\": ↓\"invite\"}")]),
        ],
        nonTriggering: [
            Example(files: [("invite.yaml", "category: invite\n"), ("message.yaml", "category: message\n")]),
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        var byID: [CategoryID: [CategoryFile]] = [:]
        for entry in files { byID[entry.category.id, default: []].append(entry.file) }
        var violations: [Violation] = []
        for (id, declaring) in byID where declaring.count > 1 {
            for file in declaring {
                let others = declaring.filter { $0.path != file.path }
                    .map { $0.sourceMap.location(of: "/category").description }
                violations.append(Violation(file.sourceMap.location(of: "/category"),
                    "category \"\(id)\" is also declared at \(others.sorted().joined(separator: ", ")); "
                        + "category ids must be unique"))
            }
        }
        return violations
    }
}
