import ActionableCore

/// The frozen router: an immutable, `Sendable` table from (category, action) to a handler,
/// read without locks or allocation on every dispatch. Make one with ``RouterBuilder``.
public struct ActionRouter: Sendable {
    /// The catalog the routes were checked against.
    public let catalog: Catalog
    private let table: RouteTable
    private let handlers: [ActionHandler]
    private let patterns: [RoutePattern]

    init(catalog: Catalog, table: RouteTable, handlers: [ActionHandler], patterns: [RoutePattern]) {
        self.catalog = catalog
        self.table = table
        self.handlers = handlers
        self.patterns = patterns
    }

    /// The route that takes (`category`, `action`): the exact route, else `category.*`, else `*`.
    public func route(category: String, action: String) -> RoutePattern? {
        let index = table.lookup(category: category, action: action)
        return index < 0 ? nil : patterns[Int(index)]
    }

    /// Whether some route takes (`category`, `action`).
    public func handles(category: String, action: String) -> Bool {
        table.lookup(category: category, action: action) >= 0
    }

    /// Runs the handler routed for `response`, inside the middleware. A thrown error is returned
    /// as is: callers treat it as ``HandlerOutcome/retry(after:)``.
    ///
    /// - Throws: ``NoRouteError`` when no route takes the response, or what the handler throws.
    @inlinable
    public func dispatch(_ response: ActionResponse, context: ActionContext) async throws -> HandlerOutcome {
        try await handler(category: response.category.rawValue, action: response.action.rawValue)(response, context)
    }

    /// The composed handler for (`category`, `action`).
    @usableFromInline
    func handler(category: String, action: String) throws(NoRouteError) -> ActionHandler {
        let index = table.lookup(category: category, action: action)
        guard index >= 0 else { throw NoRouteError(category: category, action: action) }
        return handlers[Int(index)]
    }
}
