/// Text a person reads: either one plain string, or translations keyed by locale.
///
/// In a category file it is written `title: Accept` or `title: { en: Accept, de: Annehmen }`.
/// The first locale of a map is the development language, so the order of entries is kept.
public enum LocalizedString: Hashable, Sendable {
    /// One string for every locale.
    case plain(String)
    /// Translations in file order; the first is the development language.
    case localized([Localization])

    /// One translation.
    public struct Localization: Hashable, Sendable {
        /// A BCP 47 locale identifier such as `en` or `zh-Hans`.
        public var locale: String
        /// The text in that locale.
        public var value: String

        /// Creates a translation.
        public init(locale: String, value: String) {
            self.locale = locale
            self.value = value
        }
    }

    /// The plain string, or the development language's translation.
    public var developmentValue: String {
        switch self {
        case .plain(let text): return text
        case .localized(let entries): return entries.first?.value ?? ""
        }
    }

    /// The locales this string is translated into (empty for a plain string).
    public var locales: [String] {
        switch self {
        case .plain: return []
        case .localized(let entries): return entries.map(\.locale)
        }
    }

    /// Every value with its locale (`nil` for a plain string).
    public var values: [(locale: String?, value: String)] {
        switch self {
        case .plain(let text): return [(nil, text)]
        case .localized(let entries): return entries.map { ($0.locale, $0.value) }
        }
    }
}

extension LocalizedString: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .plain(value) }
}
