public import ActionableCore

/// `Categories/<category id>.yaml` lets a person find a category by the id a backend logs.
public struct FileNameMismatchRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "file_name_mismatch",
        summary: "the file name is not the category id",
        severity: .warning,
        triggering: [Example(files: [("invitation.yaml", "category: ↓invite\n")])],
        nonTriggering: [
            Example(files: [("invite.yaml", "category: invite\n")]),
            Example(files: [("invite.json", "{\"category\": \"invite\"}")]),
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        guard file.baseName != category.id.rawValue else { return [] }
        return [
            Violation(
                file.sourceMap.location(of: "/category"),
                "file \"\(file.baseName)\" declares category \"\(category.id)\"; name the file \(category.id).yaml")
        ]
    }
}
