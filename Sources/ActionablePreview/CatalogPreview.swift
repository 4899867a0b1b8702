public import ActionableCore

/// The catalog as iOS draws its notifications' buttons: for each category, in each locale its
/// strings are written in, the default context (the expanded notification, at most four
/// actions) and the minimal context (banners and small spaces, at most two), each action with
/// its title, destructive in red, an icon by its symbol name, the lock of
/// `authenticationRequired`, and a text-input action's field with its placeholder and button.
///
/// Rendered by ``PreviewRenderer`` for the admin page and for `actionable preview`.
public struct CatalogPreview: Sendable {
    /// One category's preview.
    public struct Category: Sendable {
        public var id: String
        public var description: String?
        public var locales: [Locale]
    }

    /// One locale's drawing of a category.
    public struct Locale: Sendable {
        /// The locale (`en`, `de`), or `default` for strings written once for every locale.
        public var name: String
        public var contexts: [Context]
    }

    /// One context's buttons.
    public struct Context: Sendable {
        /// `default` or `minimal`.
        public var name: String
        /// A caption saying what it is.
        public var caption: String
        public var actions: [Action]
    }

    /// One button.
    public struct Action: Sendable {
        public var id: String
        public var title: String
        public var destructive: Bool
        public var authenticationRequired: Bool
        public var foreground: Bool
        public var icon: String?
        public var input: Input?
    }

    /// A text-input action's field.
    public struct Input: Sendable {
        public var placeholder: String
        public var button: String
    }

    public var categories: [Category]

    /// The preview of `catalog`. Retired categories are left out: apps no longer show them.
    public init(catalog: Catalog) {
        categories = catalog.categories.filter { !$0.retired }.map(Self.category)
    }

    static func category(_ category: NotificationCategory) -> Category {
        var locales: [String] = []
        for action in category.registeredActions {
            for text in [action.title, action.input?.button, action.input?.placeholder].compactMap({ $0 }) {
                for locale in text.locales where !locales.contains(locale) { locales.append(locale) }
            }
        }
        let names: [String?] = locales.isEmpty ? [nil] : locales
        return Category(
            id: category.id.rawValue, description: category.description,
            locales: names.map { locale in
                Locale(
                    name: locale ?? "default",
                    contexts: [
                        Context(
                            name: "default", caption: "Expanded notification (default context)",
                            actions: category.contexts.default.compactMap { category.action($0) }.map { action(for: $0, locale) }),
                        Context(
                            name: "minimal", caption: "Banner (minimal context)",
                            actions: category.contexts.minimal.compactMap { category.action($0) }.map { action(for: $0, locale) }),
                    ])
            })
    }

    static func action(for action: NotificationAction, _ locale: String?) -> Action {
        Action(
            id: action.id.rawValue, title: text(action.title, locale), destructive: action.destructive,
            authenticationRequired: action.authenticationRequired, foreground: action.activation == .foreground,
            icon: action.icon.map {
                switch $0 {
                case .system(let name), .template(let name): return name
                }
            },
            input: action.input.map { input in
                Input(placeholder: input.placeholder.map { text($0, locale) } ?? "", button: input.button.map { text($0, locale) } ?? "Send")
            })
    }

    /// `string` in `locale`, else in the development language.
    static func text(_ string: LocalizedString, _ locale: String?) -> String {
        guard let locale else { return string.developmentValue }
        return string.values.first { $0.locale == locale }?.value ?? string.developmentValue
    }
}
