import ActionableTokens
import Testing

/// The ActionTokenError `body` throws; nil when it throws nothing (any other error is an issue).
func failure(_ body: () async throws -> Void) async -> ActionTokenError? {
    do {
        try await body()
        return nil
    } catch let error as ActionTokenError {
        return error
    } catch {
        Issue.record("unexpected \(error)")
        return nil
    }
}
