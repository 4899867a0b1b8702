public import Foundation

/// The categories a server serves at `GET /v1/categories`, as an app registers them: checked
/// against the rules `actionable lint` applies, with every title in the device's language.
///
/// A server (or a proxy in front of it) can answer anything, so nothing is taken on trust: a
/// category that breaks a rule is left out whole and named in ``skipped`` with the reason, and
/// an answer that is not a catalog at all is refused (``ServedCatalogError``). What is left is
/// what the category files could have declared.
public struct ServedCatalog: Hashable, Sendable {
    /// The categories to register: retired ones left out, each with its registered actions.
    public var categories: [ServedCategory]
    /// Categories left out, each with why (`"category 'x': 11 actions, iOS registers at most 10"`).
    public var skipped: [String]

    /// The most categories one catalog may hold; a larger answer is refused.
    public static let maximumCategories = 1_000

    /// The category called `identifier`, if served.
    public func category(_ identifier: String) -> ServedCategory? {
        categories.first { $0.identifier == identifier }
    }

    /// The payload keys of a served category, for `NotificationResponseHandler`'s
    /// `payloadKeys` (after the generated `NotificationCategories.payloadKeys(ofCategory:)`).
    public func payloadKeys(ofCategory identifier: String) -> Set<String>? {
        category(identifier).map(\.payloadKeys)
    }
}

/// One served category, its texts resolved for the device's languages.
public struct ServedCategory: Hashable, Sendable {
    /// The category's identifier (`aps.category`).
    public var identifier: String
    /// The actions an app registers, in display order: the `default` context first.
    public var actions: [ServedAction]
    /// Option names as in the category files (`customDismissAction`, …); unknown names are dropped.
    public var options: [String]
    /// The intents the category names.
    public var intents: [String]
    /// The text shown when previews are hidden.
    public var hiddenPreviewsBodyPlaceholder: String?
    /// The summary of grouped notifications.
    public var summaryFormat: String?
    /// The custom keys of the category's payload.
    public var payloadKeys: Set<String>
}

/// One served action, its texts resolved for the device's languages.
public struct ServedAction: Hashable, Sendable {
    /// The action's identifier, reported with a tap.
    public var identifier: String
    /// The button's title.
    public var title: String
    /// `background`, `foreground`.
    public var foreground: Bool
    /// A destructive action (shown in red).
    public var destructive: Bool
    /// The device must be unlocked.
    public var authenticationRequired: Bool
    /// An SF Symbol (`system`) or a template image from the app's assets (iOS 15+).
    public var icon: Icon?
    /// The text field of a text-input action.
    public var input: Input?

    /// An action's icon.
    public enum Icon: Hashable, Sendable {
        /// An SF Symbol's name.
        case system(String)
        /// The name of a template image in the app's asset catalog.
        case template(String)
    }

    /// The text field of a text-input action.
    public struct Input: Hashable, Sendable {
        /// The send button's title.
        public var button: String?
        /// The field's placeholder.
        public var placeholder: String?
        /// The longest text the server accepts, in characters as a person counts them.
        public var maxLength: Int

        /// A text field with these texts and limit.
        public init(button: String?, placeholder: String?, maxLength: Int) {
            self.button = button
            self.placeholder = placeholder
            self.maxLength = maxLength
        }
    }
}

/// An answer that is not a catalog: the app keeps what it had.
public struct ServedCatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the answer.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension ServedCatalog {
    /// The longest identifier the category files allow.
    static let maximumIdentifierLength = 64
    /// The most actions a category registers (iOS's limit, `too_many_actions`).
    static let maximumActions = 10
    /// The most actions of the `default` context.
    static let maximumDefault = 4
    /// The most actions of the `minimal` context.
    static let maximumMinimal = 2
    /// Identifiers Apple reserves for the tap on the notification and its dismissal.
    static let reservedActionIdentifiers: Set<String> = [
        "com.apple.UNNotificationDefaultActionIdentifier", "com.apple.UNNotificationDismissActionIdentifier",
    ]
    static let knownOptions: Set<String> = [
        "customDismissAction", "allowInCarPlay", "hiddenPreviewsShowTitle", "hiddenPreviewsShowSubtitle", "allowAnnouncement",
    ]

    /// Reads the body of `GET /v1/categories`, resolving texts for `languages` (most preferred
    /// first, as `Locale.preferredLanguages`): the first language the text has — exactly
    /// (`pt-BR`), then by language (`de` for `de-CH`) — else English, else the locale that sorts
    /// first. Throws ``ServedCatalogError`` when the body is not a version 1 catalog.
    public init(json: Data, languages: [String] = Locale.preferredLanguages) throws {
        let raw: RawCatalog
        do {
            raw = try JSONDecoder().decode(RawCatalog.self, from: json)
        } catch {
            throw ServedCatalogError("the answer is not a catalog: \(Self.reason(error))")
        }
        guard raw.version == 1 else { throw ServedCatalogError("the catalog's version is \(raw.version), not 1") }
        guard raw.categories.count <= Self.maximumCategories else {
            throw ServedCatalogError("the catalog holds \(raw.categories.count) categories, more than \(Self.maximumCategories)")
        }
        var categories: [ServedCategory] = []
        var skipped: [String] = []
        var seen: Set<String> = []
        for (index, entry) in raw.categories.enumerated() {
            do {
                guard let category = try Self.category(try entry.result.get(), languages: languages) else { continue }  // retired
                guard seen.insert(category.identifier).inserted else {
                    throw ServedCatalogError("category '\(category.identifier)' is served twice")
                }
                categories.append(category)
            } catch let error as ServedCatalogError {
                skipped.append("categories[\(index)]: \(error.description)")
            } catch {
                skipped.append("categories[\(index)]: \(Self.reason(error))")
            }
        }
        self.init(categories: categories, skipped: skipped)
    }

    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return (path.isEmpty ? "" : path + ": ") + context.debugDescription
        default:
            return "\(error)"
        }
    }

    /// What iOS passes a format it fills in, in order: the hidden-previews placeholder gets the
    /// count (`%u`); the summary format the count, then the summary argument (`%u more from %@`).
    enum FormatArgument: Equatable {
        case count
        case text
    }

    /// `text` when every format specifier in it names an argument iOS supplies, as that argument's
    /// type — `%u` or `%d` for the count, `%@` for the summary argument, in order or positional
    /// (`%2$@ … %1$u`), `%%` — else nil. No width, precision or flag: iOS formats these strings,
    /// and a specifier it has no argument for (`%9$@`, `%@ %@ %@`), an object read from the count
    /// (`%1$@`) or a width of two billion is a crash or a hang the server does not get to choose.
    static func safeFormat(_ text: String, arguments: [FormatArgument]) -> String? {
        var scalars = text.unicodeScalars.makeIterator()
        var sequential = 0
        var positional: Bool?
        while let scalar = scalars.next() {
            guard scalar == "%" else { continue }
            var next = scalars.next()
            if next == "%" { continue }
            var digits = ""
            while let digit = next, ("0"..."9").contains(digit), digits.count < 3 {
                digits.unicodeScalars.append(digit)
                next = scalars.next()
            }
            let index: Int
            if !digits.isEmpty {
                // Only a position (`%2$@`): digits without `$` would be a width.
                guard next == "$", let position = Int(digits), position >= 1, positional != false else { return nil }
                positional = true
                index = position
                next = scalars.next()
            } else {
                guard positional != true else { return nil }  // positional and not, mixed
                positional = false
                sequential += 1
                index = sequential
            }
            guard index <= arguments.count else { return nil }
            if next == "l" { next = scalars.next() }
            switch (arguments[index - 1], next) {
            case (.count, "u"?), (.count, "d"?), (.text, "@"?): continue
            default: return nil
            }
        }
        return text
    }

    static func isIdentifier(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, scalars.count <= maximumIdentifierLength, isASCIILetter(first) else { return false }
        return scalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "_" }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func category(_ raw: RawCategory, languages: [String]) throws -> ServedCategory? {
        guard isIdentifier(raw.category) else {
            throw ServedCatalogError(
                "'\(raw.category.prefix(80))' is not a category identifier (a letter, then letters, digits, '.', '-', '_'; at most 64)")
        }
        let name = "category '\(raw.category)'"
        if raw.retired == true { return nil }
        var declared: [ServedAction] = []
        for action in raw.actions where action.retired != true {
            declared.append(try Self.action(action, category: name, languages: languages))
        }
        guard declared.count <= maximumActions else {
            throw ServedCatalogError("\(name): \(declared.count) actions, iOS registers at most \(maximumActions)")
        }
        guard Set(declared.map(\.identifier)).count == declared.count else {
            throw ServedCatalogError("\(name): two actions share an identifier")
        }
        let defaultContext = try Self.context(raw.contexts?.default, limit: maximumDefault, known: declared, name: "\(name): the default context")
        _ = try Self.context(raw.contexts?.minimal, limit: maximumMinimal, known: declared, name: "\(name): the minimal context")
        let first = defaultContext.compactMap { id in declared.first { $0.identifier == id } }
        let ordered = first + declared.filter { !defaultContext.contains($0.identifier) }
        return ServedCategory(
            identifier: raw.category, actions: ordered, options: (raw.options ?? []).filter(knownOptions.contains),
            intents: raw.intents ?? [],
            hiddenPreviewsBodyPlaceholder: raw.hiddenPreviewsBodyPlaceholder?.resolved(for: languages).flatMap {
                Self.safeFormat($0, arguments: [.count])
            },
            summaryFormat: raw.summaryFormat?.resolved(for: languages).flatMap { Self.safeFormat($0, arguments: [.count, .text]) },
            payloadKeys: Set((raw.payload ?? [:]).keys))
    }

    private static func context(_ list: [String]?, limit: Int, known: [ServedAction], name: String) throws -> [String] {
        guard let list else { return [] }
        guard list.count <= limit else { throw ServedCatalogError("\(name) holds \(list.count) actions, at most \(limit)") }
        guard Set(list).count == list.count else { throw ServedCatalogError("\(name) names an action twice") }
        for id in list where !known.contains(where: { $0.identifier == id }) {
            throw ServedCatalogError("\(name) names '\(id.prefix(80))', which is not an action of the category")
        }
        return list
    }

    private static func action(_ raw: RawAction, category: String, languages: [String]) throws -> ServedAction {
        guard isIdentifier(raw.id), !reservedActionIdentifiers.contains(raw.id) else {
            throw ServedCatalogError("\(category): '\(raw.id.prefix(80))' is not an action identifier")
        }
        let name = "\(category), action '\(raw.id)'"
        guard let title = raw.title.resolved(for: languages), !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ServedCatalogError("\(name): no title")
        }
        var icon: ServedAction.Icon?
        if let system = raw.icon?.system, !system.isEmpty {
            icon = .system(system)
        } else if let template = raw.icon?.template, !template.isEmpty {
            icon = .template(template)
        }
        var input: ServedAction.Input?
        if let rawInput = raw.input {
            let maxLength = rawInput.maxLength ?? 1_000
            guard (1...Int(Int32.max)).contains(maxLength) else {
                throw ServedCatalogError("\(name): maxLength \(maxLength) is outside 1…\(Int32.max)")
            }
            input = ServedAction.Input(
                button: rawInput.button?.resolved(for: languages), placeholder: rawInput.placeholder?.resolved(for: languages),
                maxLength: maxLength)
        }
        return ServedAction(
            identifier: raw.id, title: title, foreground: raw.activation == "foreground", destructive: raw.destructive ?? false,
            authenticationRequired: raw.authenticationRequired ?? false, icon: icon, input: input)
    }
}

/// The JSON of `GET /v1/categories` as it comes: every field the app reads, nothing trusted.
struct RawCatalog: Decodable {
    var version: Int
    var categories: [Lossy<RawCategory>]
}

/// One element of a list, decoded on its own: a bad category is skipped, not the whole catalog.
struct Lossy<Element: Decodable>: Decodable {
    var result: Result<Element, any Error>

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try Element(from: decoder))
        } catch {
            result = .failure(error)
        }
    }
}

struct RawCategory: Decodable {
    struct Contexts: Decodable {
        var `default`: [String]?
        var minimal: [String]?
    }
    var category: String
    var options: [String]?
    var intents: [String]?
    var hiddenPreviewsBodyPlaceholder: RawText?
    var summaryFormat: RawText?
    var payload: [String: IgnoredValue]?
    var actions: [RawAction]
    var contexts: Contexts?
    var retired: Bool?
}

struct RawAction: Decodable {
    struct Icon: Decodable {
        var system: String?
        var template: String?
    }
    struct Input: Decodable {
        var button: RawText?
        var placeholder: RawText?
        var maxLength: Int?
    }
    var id: String
    var title: RawText
    var activation: String?
    var destructive: Bool?
    var authenticationRequired: Bool?
    var icon: Icon?
    var input: Input?
    var retired: Bool?
}

/// A value whose content the app does not read (a payload field's declaration).
struct IgnoredValue: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// A plain text, or `{locale: text}`.
struct RawText: Decodable {
    var entries: [(locale: String, text: String)]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            entries = [("", text)]
        } else {
            entries = try container.decode([String: String].self).map { ($0.key, $0.value) }
        }
    }

    func resolved(for languages: [String]) -> String? {
        if entries.count == 1, entries[0].locale.isEmpty { return entries[0].text }
        return LocalizedText.resolve(entries, languages: languages)
    }
}

/// Picks a translation for the device's languages.
enum LocalizedText {
    /// The text for the first of `languages` the entries have — exactly (`pt-BR`), then by
    /// language (`de` for `de-CH`, `de-AT` for `de`) — else the entry whose locale sorts first
    /// (JSON objects carry no order a client can rely on, so the choice does not depend on it;
    /// with `en` present, `en`).
    static func resolve(_ entries: [(locale: String, text: String)], languages: [String]) -> String? {
        guard !entries.isEmpty else { return nil }
        func normalized(_ locale: String) -> String { locale.replacingOccurrences(of: "_", with: "-").lowercased() }
        func language(_ locale: String) -> String { String(normalized(locale).split(separator: "-").first ?? "") }
        let sorted = entries.sorted { normalized($0.locale) < normalized($1.locale) }
        for preferred in languages {
            if let exact = sorted.first(where: { normalized($0.locale) == normalized(preferred) }) { return exact.text }
            if let sameLanguage = sorted.first(where: { language($0.locale) == language(preferred) }) { return sameLanguage.text }
        }
        return (sorted.first { language($0.locale) == "en" } ?? sorted[0]).text
    }
}
