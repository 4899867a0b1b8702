import Hummingbird
import Logging

extension Problem {
    /// Storage could not take or give an answer: 503 with the storage `Retry-After` of
    /// `settings`; `detail` says what did not happen, or why (never a credential).
    static func storageUnavailable(_ settings: ServerSettings, _ detail: String) -> Problem {
        Problem(
            .storageUnavailable, "\(detail); retry after \(settings.retryAfter.storageUnavailable) seconds",
            headers: [.retryAfter: String(settings.retryAfter.storageUnavailable)])
    }

    /// Too many accepts in progress: 429 with the overload `Retry-After` of `settings`.
    static func overloaded(_ settings: ServerSettings) -> Problem {
        Problem(
            .overloaded,
            "the server is at its limit of \(settings.maximumConcurrentAccepts) responses in progress; nothing was stored, retry shortly",
            headers: [.retryAfter: String(settings.retryAfter.overloaded)])
    }
}

extension ServerSettings {
    /// Runs a storage call for a request: a failure is logged with the request's logger and
    /// answered 503 with the storage `Retry-After` (the error's text stays in the log).
    func storage<T: Sendable>(
        _ context: ActionableRequestContext, _ detail: String = "the storage cannot be reached", _ call: () async throws -> T
    ) async throws -> T {
        do {
            return try await call()
        } catch {
            context.logger.error("storage failed", metadata: ["error": "\(error)"])
            throw Problem.storageUnavailable(self, detail)
        }
    }
}
