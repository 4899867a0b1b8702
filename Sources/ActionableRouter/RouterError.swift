/// Registrations that do not fit the catalog, all found at once when the router is built.
public struct RouterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One bad registration.
    public struct Problem: Hashable, Sendable {
        /// The route as registered.
        public let pattern: String
        /// What is wrong and the fix.
        public let message: String
    }

    /// Every problem found.
    public let problems: [Problem]

    init(_ problems: [Problem]) { self.problems = problems }

    public var description: String { problems.map(\.message).joined(separator: "\n") }
}

/// No handler is registered for a response (and no `category.*` or `*` catches it).
public struct NoRouteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of the response.
    public let category: String
    /// The action of the response.
    public let action: String

    /// An error for (`category`, `action`).
    public init(category: String, action: String) {
        self.category = category
        self.action = action
    }

    public var description: String {
        "no handler is registered for \(category).\(action); register one, or a \(category).* or * route"
    }
}
