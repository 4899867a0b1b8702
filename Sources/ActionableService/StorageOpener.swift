import ActionableHTTP
import ActionableStore
import Logging

/// Opens storage at start-up, trying again until it is reachable: the first failure, and each
/// new reason after it, is one `warning` line naming the storage (password redacted), the error
/// and the retry; with a timeout it gives up with ``StorageTimeout``.
struct StorageOpener: Sendable {
    let url: String
    let drivers: StorageDriverRegistry
    let timeout: Duration?
    let logger: Logger
    /// The first wait between attempts; it doubles up to ``longestDelay``.
    var firstDelay: Duration = .milliseconds(250)
    static let longestDelay: Duration = .seconds(5)

    /// Opens the store, telling `gate` why not yet while it tries, and opens the gate on it.
    func open(into gate: StorageGate) async throws -> any ActionStore {
        let clock = ContinuousClock()
        let start = clock.now
        var delay = firstDelay
        var reported: String?
        let redacted = StorageURL.redacted(url)
        while true {
            do {
                let store = try await drivers.open(url, logger: logger)
                gate.open(store)
                if reported != nil { logger.notice("storage \(redacted) is reachable now; ready") }
                return store
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                let reason = "\(error)"
                gate.waiting(because: "storage \(redacted) is not reachable: \(reason)")
                let waited = clock.now - start
                if let timeout, waited + delay > timeout {
                    throw StorageTimeout(storage: redacted, timeout: timeout, reason: reason)
                }
                if reason != reported {
                    let giveUp = timeout.map { "gives up after \($0.components.seconds) s" } ?? "set --storage-timeout to give up instead"
                    logger.warning(
                        """
                        storage \(redacted) is not reachable: \(reason); retrying every few seconds \
                        (/readyz answers 503 until it is; \(giveUp))
                        """)
                    reported = reason
                } else {
                    logger.debug("storage still not reachable", metadata: ["error": "\(reason)"])
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestDelay)
            }
        }
    }
}

/// Storage did not become reachable within the configured time.
public struct StorageTimeout: Error, Hashable, Sendable, CustomStringConvertible {
    /// The storage URL, password redacted.
    public var storage: String
    /// How long start-up waited.
    public var timeout: Duration
    /// The last error.
    public var reason: String

    public var description: String {
        "storage \(storage) was not reachable within \(timeout.components.seconds) s (--storage-timeout): \(reason)"
    }
}
