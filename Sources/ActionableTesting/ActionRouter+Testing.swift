public import ActionableCore
public import ActionableRouter
import Logging

extension ActionRouter {
    /// Runs `response` as the server would: validated against the catalog first (throwing the
    /// same `ActionResponseError` a 422 would carry), then dispatched to its handler.
    public func test(
        _ response: ActionResponse, responseID: String = "test-response", attempt: Int = 1
    ) async throws -> HandlerOutcome {
        try catalog.validate(response)
        let context = ActionContext(
            responseID: responseID, attempt: attempt,
            logger: Logger(label: "actionable.testing", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await dispatch(response, context: context)
    }
}

/// Records what handlers received, for assertions.
///
/// ```swift
/// let recorder = HandlerRecorder()
/// builder.on("invite", "accept", recorder.handler())
/// _ = try await router.test(.tap("invite", "accept", payload: ["inviteId": "42"]))
/// #expect(await recorder.responses.map(\.action) == ["accept"])
/// ```
public actor HandlerRecorder {
    /// Every response handled, in order.
    public private(set) var responses: [ActionResponse] = []
    /// The context of each, in order.
    public private(set) var contexts: [ActionContext] = []

    /// A recorder.
    public init() {}

    /// A handler that records and answers `outcome`.
    public nonisolated func handler(returning outcome: HandlerOutcome = .done) -> ActionHandler {
        { response, context in
            await self.record(response, context)
            return outcome
        }
    }

    private func record(_ response: ActionResponse, _ context: ActionContext) {
        responses.append(response)
        contexts.append(context)
    }
}
