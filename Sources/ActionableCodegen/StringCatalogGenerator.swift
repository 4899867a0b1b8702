import ActionableCore

/// `--strings FILE.xcstrings`: an Xcode String Catalog (JSON, `version` "1.0") holding every
/// locale of every string the app target reads through `NSLocalizedString`, under the same
/// keys (``LocalizationKeys``).
///
/// The source language is the development language of the files: the first locale of the first
/// localized string, in category-id order (`en` when every string is plain). A plain string is
/// in the source language. Keys and locales are sorted, so the same files give the same bytes.
public struct StringCatalogGenerator: Sendable {
    /// A generator.
    public init() {}

    /// The String Catalog of `categories`.
    public func generate(_ categories: [SourceCategory]) throws(GenerationError) -> String {
        let sorted = try NameCollisions.checkedInOrder(categories).registered
        let entries = sorted.flatMap { Self.entries(of: $0.category) }
        let source = entries.lazy.compactMap { $0.text.locales.first }.first ?? "en"
        let strings = entries.sorted { $0.key < $1.key }.map { entry -> (String, JSONValue) in
            var values: [String: String] = [:]
            for (locale, value) in entry.text.values { values[locale ?? source] = value }
            let localizations = values.keys.sorted().map { locale -> (String, JSONValue) in
                let unit = JSONValue.object([("state", .string("translated")), ("value", .string(values[locale] ?? ""))])
                return (locale, .object([("stringUnit", unit)]))
            }
            return (
                entry.key,
                .object([
                    ("comment", .string(entry.comment)), ("extractionState", .string("manual")),
                    ("localizations", .object(localizations)),
                ])
            )
        }
        let catalog = JSONValue.object([("sourceLanguage", .string(source)), ("strings", .object(strings)), ("version", .string("1.0"))])
        return catalog.prettySerialized() + "\n"
    }

    private struct Entry {
        var key: String
        var text: LocalizedString
        var comment: String
    }

    /// The strings of `category` the app target localizes, with their keys and comments.
    private static func entries(of category: NotificationCategory) -> [Entry] {
        let id = category.id
        var entries: [Entry] = []
        if let text = category.hiddenPreviewsBodyPlaceholder {
            entries.append(
                Entry(
                    key: LocalizationKeys.hiddenPreviewsBodyPlaceholder(id), text: text,
                    comment: LocalizationComments.hiddenPreviewsBodyPlaceholder(id)))
        }
        if let text = category.summaryFormat {
            entries.append(Entry(key: LocalizationKeys.summaryFormat(id), text: text, comment: LocalizationComments.summaryFormat(id)))
        }
        for action in category.actions {
            entries.append(
                Entry(
                    key: LocalizationKeys.title(id, action.id), text: action.title, comment: LocalizationComments.title(id, action.id)
                ))
            guard let input = action.input else { continue }
            entries.append(
                Entry(
                    key: LocalizationKeys.button(id, action.id), text: input.buttonOrDefault,
                    comment: LocalizationComments.button(id, action.id)))
            if let placeholder = input.placeholder {
                entries.append(
                    Entry(
                        key: LocalizationKeys.placeholder(id, action.id), text: placeholder,
                        comment: LocalizationComments.placeholder(id, action.id)))
            }
        }
        return entries
    }
}
