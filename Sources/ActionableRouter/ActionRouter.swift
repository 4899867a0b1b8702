public import ActionableCore

/// A registered route: its pattern and its handler, wrapped in the middleware.
public struct Route: Sendable {
    /// The pattern the handler was registered for.
    public let pattern: RoutePattern
    /// The handler inside the middleware.
    public let handler: ActionHandler
}

/// The frozen router: an immutable, `Sendable` table from (category, action) to a handler,
/// read without locks or allocation on every dispatch. Make one with ``RouterBuilder``.
///
/// On a hot path, look the handler up and call it directly: the lookup is synchronous, retains
/// only the handler, and the one async call is the handler's own.
///
/// ```swift
/// guard let handler = router.handler(for: response) else { … }
/// let outcome = try await handler(response, context)
/// ```
public struct ActionRouter: Sendable {
    /// The catalog the routes were checked against.
    public let catalog: Catalog
    private let table: RouteTable
    private let handlers: [HandlerBox]
    private let patterns: [RoutePattern]

    /// A closure stored in an array is kept at the array's generic abstraction; reading it back
    /// as a concrete function type would build a reabstraction thunk (an allocation) on every
    /// lookup. A struct field keeps the closure's own representation.
    struct HandlerBox: Sendable {
        let call: ActionHandler
    }

    init(catalog: Catalog, table: RouteTable, handlers: [HandlerBox], patterns: [RoutePattern]) {
        self.catalog = catalog
        self.table = table
        self.handlers = handlers
        self.patterns = patterns
    }

    /// The handler (inside the middleware) that takes (`category`, `action`): the exact route,
    /// else `category.*`, else `*`.
    public func handler(category: String, action: String) -> ActionHandler? {
        let index = table.lookup(category: category, action: action)
        return index < 0 ? nil : handlers[Int(index)].call
    }

    /// The handler (inside the middleware) that takes `response`. Inlinable so that the caller
    /// reads the two identifiers in place instead of copying the whole response.
    @inlinable
    public func handler(for response: ActionResponse) -> ActionHandler? {
        handler(category: response.category.rawValue, action: response.action.rawValue)
    }

    /// The route that takes (`category`, `action`).
    public func route(category: String, action: String) -> Route? {
        let index = table.lookup(category: category, action: action)
        return index < 0 ? nil : Route(pattern: patterns[Int(index)], handler: handlers[Int(index)].call)
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
        guard let handler = handler(for: response) else {
            throw NoRouteError(category: response.category.rawValue, action: response.action.rawValue)
        }
        return try await handler(response, context)
    }
}
