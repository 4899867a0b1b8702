import ActionableCore

/// Once the catalog is translated into a locale, every localized string should be.
public struct MissingTranslationRule: CatalogRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "missing_translation",
        summary: "a locale used somewhere in the catalog is missing from a localized string",
        severity: .warning,
        triggering: [
            Example(files: [
                ("invite.yaml", "category: invite\nactions:\n  - id: accept\n    title: ↓{ en: Accept }\n"
                    + "  - id: decline\n    title: ↓{ en: Decline, de: Ablehnen }\n"),
                ("friend.yaml", "category: friend\nhiddenPreviewsBodyPlaceholder: ↓{ fr: amis }\n"),
            ]),
        ],
        nonTriggering: [
            Example(files: [
                ("invite.yaml", "category: invite\nactions:\n  - id: accept\n    title: { en: Accept, de: Annehmen }\n"
                    + "  - id: decline\n    title: Decline\n"),
            ]),
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        var allLocales = Set<String>()
        for (_, category) in files {
            for entry in category.readableStrings { allLocales.formUnion(entry.text.locales) }
        }
        guard allLocales.count > 1 else { return [] }
        var violations: [Violation] = []
        for (file, category) in files {
            for entry in category.readableStrings where !entry.text.locales.isEmpty {
                let missing = allLocales.subtracting(entry.text.locales).sorted()
                guard !missing.isEmpty else { continue }
                violations.append(Violation(file.sourceMap.location(of: entry.pointer),
                    "\(entry.name) has no \(missing.joined(separator: ", ")) translation, though the catalog uses "
                        + (missing.count == 1 ? "that locale" : "those locales") + " elsewhere"))
            }
        }
        return violations
    }
}
