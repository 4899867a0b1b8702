public import ActionableCore
import Foundation

/// Registers handlers, checks them against the catalog, then freezes into an ``ActionRouter``.
///
/// ```swift
/// var builder = RouterBuilder(catalog: catalog)
/// builder.on("invite", "accept") { response, context in
///     try await invitations.accept(response[payload: "inviteId"], user: response.user)
///     return .done
/// }
/// builder.on(category: "invite") { _, _ in .done }   // every other invite action
/// let router = try builder.build()
/// ```
public struct RouterBuilder: Sendable {
    /// The catalog registrations are checked against.
    public let catalog: Catalog
    /// Registrations are structs, not tuples: a closure inside a tuple inside an array is kept
    /// at the array's generic abstraction, and every call would go through a reabstraction
    /// thunk (an async one, with its own task allocation). A struct field keeps its own.
    private struct Registration: Sendable {
        let pattern: RoutePattern
        let handler: ActionHandler
    }

    private var routes: [Registration] = []
    private var middleware: [any ActionMiddleware] = []

    /// Starts a router for `catalog`.
    public init(catalog: Catalog) { self.catalog = catalog }

    /// Registers `handler` for `pattern`.
    public mutating func on(_ pattern: RoutePattern, _ handler: @escaping ActionHandler) {
        routes.append(Registration(pattern: pattern, handler: handler))
    }

    /// Registers `handler` for one action of one category (`category.action`).
    public mutating func on(_ category: CategoryID, _ action: ActionID, _ handler: @escaping ActionHandler) {
        on(.action(category, action), handler)
    }

    /// Registers `handler` for every action of a category without a route of its own (`category.*`).
    public mutating func on(category: CategoryID, _ handler: @escaping ActionHandler) {
        on(.category(category), handler)
    }

    /// Registers `handler` for every response no other route takes (`*`).
    public mutating func onAny(_ handler: @escaping ActionHandler) {
        on(.any, handler)
    }

    /// Registers a handler that receives its notification's custom payload decoded as `Payload`.
    /// A payload that does not decode (the handler's type disagrees with the category file) ends
    /// the response as ``HandlerOutcome/fail(reason:)``: retrying cannot fix it.
    public mutating func on<Payload: Decodable & Sendable>(
        _ category: CategoryID, _ action: ActionID, payload: Payload.Type,
        _ handler: @escaping @Sendable (ActionResponse, Payload, ActionContext) async throws -> HandlerOutcome
    ) {
        on(.action(category, action)) { response, context in
            let decoded: Payload
            do {
                let json = Data(response.payloadJSON.utf8)
                decoded = try JSONDecoder().decode(Payload.self, from: json)
            } catch {
                return .fail(
                    reason: "the payload of \(response.category).\(response.action) does not decode as "
                        + "\(Payload.self): \(error)")
            }
            return try await handler(response, decoded, context)
        }
    }

    /// Adds middleware around every handler; the first added is the outermost.
    public mutating func use(_ middleware: some ActionMiddleware) {
        self.middleware.append(middleware)
    }

    /// Declared actions (and Apple's default action, and dismiss where the category sends it)
    /// that no route covers, as `category.action` patterns sorted by category.
    public var uncovered: [RoutePattern] {
        let patterns = Set(routes.map(\.pattern))
        guard !patterns.contains(.any) else { return [] }
        var missing: [RoutePattern] = []
        for category in catalog.categories where !patterns.contains(.category(category.id)) {
            var actions = category.actions.map(\.id) + [.default]
            if category.options.contains(.customDismissAction) { actions.append(.dismiss) }
            for action in actions where !patterns.contains(.action(category.id, action)) {
                missing.append(.action(category.id, action))
            }
        }
        return missing
    }

    /// Checks every registration and freezes the table. Throws a ``RouterError`` listing every
    /// route for an undeclared category or action (with "did you mean") and every duplicate.
    public func build() throws(RouterError) -> ActionRouter {
        var problems: [RouterError.Problem] = []
        var seen = Set<RoutePattern>()
        for pattern in routes.map(\.pattern) {
            if !seen.insert(pattern).inserted {
                problems.append(.init(pattern: pattern.description, message: "route \(pattern) is registered twice"))
            }
            if let problem = check(pattern) { problems.append(problem) }
        }
        guard problems.isEmpty else { throw RouterError(problems) }

        // Each handler is wrapped in the middleware once, here, so dispatch builds no closures.
        var handlers: [ActionRouter.HandlerBox] = []
        handlers.reserveCapacity(routes.count)
        for registration in routes { handlers.append(ActionRouter.HandlerBox(call: compose(registration.handler))) }
        var anyRoute: Int32?
        var byCategory: [CategoryID: RouteTable.CategoryRoutes] = [:]
        for (index, pattern) in routes.map(\.pattern).enumerated() {
            switch pattern.kind {
            case .any:
                anyRoute = Int32(index)
            case .category(let category):
                byCategory[category, default: .init(name: category.rawValue, actions: [], fallback: nil)].fallback = Int32(index)
            case .action(let category, let action):
                byCategory[category, default: .init(name: category.rawValue, actions: [], fallback: nil)]
                    .actions.append((action.rawValue, Int32(index)))
            }
        }
        let table = RouteTable(categories: byCategory.values.sorted { $0.name < $1.name }, anyRoute: anyRoute)
        return ActionRouter(catalog: catalog, table: table, handlers: handlers, patterns: routes.map(\.pattern))
    }

    private func check(_ pattern: RoutePattern) -> RouterError.Problem? {
        let categoryID: CategoryID
        switch pattern.kind {
        case .any: return nil
        case .category(let id): categoryID = id
        case .action(let id, _): categoryID = id
        }
        guard let category = catalog[categoryID] else {
            let hint = catalog.suggestion(for: categoryID).map { " (did you mean \"\($0)\"?)" } ?? ""
            return .init(
                pattern: pattern.description,
                message: "route \(pattern) names category \"\(categoryID)\", which the catalog does not declare\(hint)")
        }
        guard case .action(_, let action) = pattern.kind else { return nil }
        if action == .default { return nil }
        if action == .dismiss {
            return category.options.contains(.customDismissAction)
                ? nil
                : .init(
                    pattern: pattern.description,
                    message: "route \(pattern) can never run: category \"\(categoryID)\" lacks the customDismissAction option")
        }
        guard category.action(action) == nil else { return nil }
        let hint = Suggestion.didYouMean(action.rawValue, in: category.actions.map(\.id.rawValue))
        return .init(
            pattern: pattern.description,
            message: "route \(pattern) names action \"\(action)\", which category \"\(categoryID)\" does not declare\(hint)")
    }

    /// Wraps a handler in the middleware once, at build time, so dispatch builds no closures.
    /// A loop, not `reduce`: a generic accumulator would reabstract the closure at every step.
    private func compose(_ handler: @escaping ActionHandler) -> ActionHandler {
        var composed = handler
        for middleware in self.middleware.reversed() {
            let next = composed
            composed = { response, context in try await middleware.handle(response, context: context, next: next) }
        }
        return composed
    }
}
