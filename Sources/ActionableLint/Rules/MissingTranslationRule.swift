public import ActionableCore

/// Once the catalog is translated into a locale, every localized string should be.
public struct MissingTranslationRule: CatalogRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "missing_translation",
        summary: "a locale used somewhere in the catalog is missing from a localized string",
        severity: .warning,
        triggering: [
            Example(files: [
                (
                    "invite.yaml",
                    "category: invite\nactions:\n  - id: accept\n    title: ↓{ en: Accept }\n"
                        + "  - id: decline\n    title: ↓{ en: Decline, de: Ablehnen }\n"
                ),
                ("friend.yaml", "category: friend\nhiddenPreviewsBodyPlaceholder: ↓{ fr: amis }\n"),
            ])
        ],
        nonTriggering: [
            Example(files: [
                (
                    "invite.yaml",
                    "category: invite\nactions:\n  - id: accept\n    title: { en: Accept, de: Annehmen }\n"
                        + "  - id: decline\n    title: Decline\n"
                )
            ])
        ]
    )

    public func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation] {
        // First pass: the catalog's locales. Most strings list the same locales in the same
        // order, so a string with the previous string's locales is skipped without hashing.
        var allLocales = Set<String>()
        var previous: [String] = []
        for (_, category) in files {
            category.forEachReadableString { _, text in
                guard case .localized(let entries) = text, !Self.sameLocales(entries, previous) else { return }
                previous = entries.map(\.locale)
                allLocales.formUnion(previous)
            }
        }
        guard allLocales.count > 1 else { return [] }
        var violations: [Violation] = []
        var complete: [String] = []
        for (file, category) in files {
            category.forEachReadableString { ordinal, text in
                guard case .localized(let entries) = text, !Self.sameLocales(entries, complete) else { return }
                let locales = Set(entries.map(\.locale))
                guard locales.count < allLocales.count else {
                    complete = entries.map(\.locale)
                    return
                }
                let missing = allLocales.subtracting(locales).sorted()
                let (pointer, name) = category.describeReadableString(ordinal)
                violations.append(
                    Violation(
                        file.sourceMap.location(of: pointer),
                        "\(name) has no \(missing.joined(separator: ", ")) translation, though the catalog uses "
                            + (missing.count == 1 ? "that locale" : "those locales") + " elsewhere"))
            }
        }
        return violations
    }

    private static func sameLocales(_ entries: [LocalizedString.Localization], _ locales: [String]) -> Bool {
        entries.count == locales.count && zip(entries, locales).allSatisfy { $0.locale == $1 }
    }
}
