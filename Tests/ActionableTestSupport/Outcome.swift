/// Runs `body` and says how it ended, so that a harness can stop what it started (a client, a
/// stand-in) before it hands a failure on.
public func outcome(of body: () async throws -> Void) async -> Result<Void, any Error> {
    do {
        try await body()
        return .success(())
    } catch {
        return .failure(error)
    }
}
