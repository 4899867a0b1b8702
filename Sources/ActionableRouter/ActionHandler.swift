public import ActionableCore

/// Handles one accepted action response. Throwing counts as ``HandlerOutcome/retry(after:)``
/// (the failure may be temporary); return ``HandlerOutcome/fail(reason:)`` for failures that are not.
public typealias ActionHandler = @Sendable (ActionResponse, ActionContext) async throws -> HandlerOutcome

/// Code that runs around every handler: logging, metrics, authorization.
///
/// ```swift
/// struct Timing: ActionMiddleware {
///     func handle(_ response: ActionResponse, context: ActionContext,
///                 next: ActionHandler) async throws -> HandlerOutcome {
///         let start = ContinuousClock.now
///         defer { context.logger.info("handled in \(ContinuousClock.now - start)") }
///         return try await next(response, context)
///     }
/// }
/// ```
public protocol ActionMiddleware: Sendable {
    /// Runs `next` (the handler, or the next middleware) or answers without it.
    func handle(
        _ response: ActionResponse, context: ActionContext, next: ActionHandler
    ) async throws
        -> HandlerOutcome
}

/// A middleware made from a closure.
public struct ClosureMiddleware: ActionMiddleware {
    private let body: @Sendable (ActionResponse, ActionContext, ActionHandler) async throws -> HandlerOutcome

    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (ActionResponse, ActionContext, ActionHandler) async throws -> HandlerOutcome) {
        self.body = body
    }

    public func handle(
        _ response: ActionResponse, context: ActionContext, next: ActionHandler
    ) async throws
        -> HandlerOutcome
    {
        try await body(response, context, next)
    }
}
