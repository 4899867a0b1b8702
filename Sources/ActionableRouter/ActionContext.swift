public import Foundation
public import Logging

/// What a handler knows besides the response itself.
public struct ActionContext: Sendable {
    /// The response's id: the same on every attempt, so a handler can pass it on as an
    /// idempotency key.
    public var responseID: String
    /// 1 for the first run, 2 for the first retry, and so on.
    public var attempt: Int
    /// When the server accepted the response.
    public var receivedAt: Date
    /// A logger carrying the response id as metadata.
    public var logger: Logger

    /// Creates a context.
    public init(responseID: String, attempt: Int = 1, receivedAt: Date = Date(), logger: Logger) {
        self.responseID = responseID
        self.attempt = attempt
        self.receivedAt = receivedAt
        var logger = logger
        logger[metadataKey: "response.id"] = .string(responseID)
        self.logger = logger
    }
}
