public import ActionableCore

/// Which responses a handler takes: one action of a category, every action of a category, or
/// everything. The most specific pattern wins.
public struct RoutePattern: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case action(CategoryID, ActionID)
        case category(CategoryID)
        case any
    }

    let kind: Kind

    private init(kind: Kind) { self.kind = kind }

    /// One action of one category: `invite.accept`. Apple's `ActionID.default` and
    /// `ActionID.dismiss` are actions like any other here.
    public static func action(_ category: CategoryID, _ action: ActionID) -> RoutePattern {
        RoutePattern(kind: .action(category, action))
    }

    /// Every action of a category, including opened and dismissed: `invite.*`.
    public static func category(_ category: CategoryID) -> RoutePattern { RoutePattern(kind: .category(category)) }

    /// Every response: `*`.
    public static let any = RoutePattern(kind: .any)

    /// `category.action`, `category.*` or `*`.
    public var description: String {
        switch kind {
        case .action(let category, let action): return "\(category).\(action)"
        case .category(let category): return "\(category).*"
        case .any: return "*"
        }
    }

    /// Parses `invite.accept`, `invite.*` or `*`. Both category and action ids may contain dots,
    /// so the split is chosen against `catalog`: the one pattern naming a declared category
    /// (and action) is taken.
    public init(parsing text: String, in catalog: Catalog) throws(RouterError) {
        if text == "*" {
            self = .any
            return
        }
        if text.hasSuffix(".*") {
            self = .category(CategoryID(String(text.dropLast(2))))
            return
        }
        var candidates: [RoutePattern] = []
        var index = text.startIndex
        while let dot = text[index...].firstIndex(of: ".") {
            let category = CategoryID(String(text[..<dot]))
            let action = ActionID(String(text[text.index(after: dot)...]))
            if let declared = catalog[category],
                declared.action(action) != nil || action == .default || action == .dismiss
            {
                candidates.append(.action(category, action))
            }
            index = text.index(after: dot)
        }
        switch candidates.count {
        case 1:
            self = candidates[0]
        case 0:
            throw RouterError([
                RouterError.Problem(
                    pattern: text,
                    message: "route \"\(text)\" names no declared category.action; write category.action, category.* or *"
                        + Self.hint(text, catalog))
            ])
        default:
            throw RouterError([
                RouterError.Problem(
                    pattern: text,
                    message: "route \"\(text)\" is ambiguous: it could be \(candidates.map(\.description).joined(separator: " or "))")
            ])
        }
    }

    private static func hint(_ text: String, _ catalog: Catalog) -> String {
        let all = catalog.categories.flatMap { category in category.actions.map { "\(category.id).\($0.id)" } }
        return Suggestion.didYouMean(text, in: all)
    }
}
