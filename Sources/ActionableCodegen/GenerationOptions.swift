public import ActionableCore

/// What every target of `actionable generate swift` takes.
public struct GenerationOptions: Hashable, Sendable {
    /// The access level of the generated declarations.
    public enum Access: String, Hashable, Sendable, CaseIterable {
        case `public`, `internal`
    }

    /// The enclosing type (`NotificationCategories`).
    public var name: String
    /// `public` (the default) or `internal`.
    public var access: Access

    /// The defaults of the command line.
    public init(name: String = "NotificationCategories", access: Access = .public) {
        self.name = name
        self.access = access
    }
}

/// One category and the file it came from (named in the header and in collision errors).
public struct SourceCategory: Hashable, Sendable {
    /// The file, as the catalog was loaded.
    public var path: String
    /// The category it declares.
    public var category: NotificationCategory

    /// `category`, declared in `path`.
    public init(path: String, category: NotificationCategory) {
        self.path = path
        self.category = category
    }
}

extension [SourceCategory] {
    /// What an app registers: retired categories left out, and retired actions left out of the
    /// others (taps from app versions that still have them reach the server, which accepts them).
    var registered: [SourceCategory] {
        filter { !$0.category.retired }.map { source in
            var source = source
            source.category.actions = source.category.registeredActions
            return source
        }
    }
}
