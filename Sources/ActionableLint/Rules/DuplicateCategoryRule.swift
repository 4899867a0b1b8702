public import ActionableCore

/// One category id declared by two files: the backend's `aps.category` would be ambiguous.
public struct DuplicateCategoryRule: CatalogRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "duplicate_category",
        summary: "two files declare one category id (reported at both)",
        severity: .error,
        triggering: [
            Example(files: [("invite.yaml", "category: ↓invite\n"), ("invite.json", "{\"category\": ↓\"invite\"}")])
        ],
        nonTriggering: [
            Example(files: [("invite.yaml", "category: invite\n"), ("message.yaml", "category: message\n")])
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        var firstFile: [CategoryID: Int] = [:]
        var duplicates: [CategoryID: [Int]] = [:]
        for (index, entry) in files.enumerated() {
            if let first = firstFile[entry.category.id] {
                duplicates[entry.category.id, default: [first]].append(index)
            } else {
                firstFile[entry.category.id] = index
            }
        }
        var violations: [Violation] = []
        for (id, declaring) in duplicates {
            let locations = declaring.map { files[$0].file.sourceMap.location(of: "/category") }
            for location in locations {
                let others = locations.filter { $0.file != location.file }.map(\.description).sorted()
                violations.append(
                    Violation(
                        location,
                        "category \"\(id)\" is also declared at \(others.joined(separator: ", ")); category ids must be unique"))
            }
        }
        return violations
    }
}
