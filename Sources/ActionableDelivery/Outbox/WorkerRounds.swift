public import Logging

/// The rounds of a worker that claims what is due and runs it (``OutboxLoop/run(wake:idle:)``):
/// a round claims and runs; when it ran nothing, the loop waits — `idle`, or until `wake` says
/// there is work — before the next. A failed round is logged and tried again after
/// `idle`.
///
/// Cancelling stops the loop, not a round in progress: the round runs in a task of its own, so
/// the claims it made run to their end and their outcomes are recorded (a graceful shutdown
/// neither cuts a request short nor leaves a claim to run out).
public struct WorkerRounds: Sendable {
    /// How long to wait after a round that ran nothing (at most, with `wake`).
    public var idle: Duration
    /// What a round does, for the log: "delivery", "send".
    public var what: String
    public var logger: Logger

    /// Rounds every `idle` at most when idle, logging failures as `what` rounds.
    public init(idle: Duration, what: String, logger: Logger) {
        self.idle = idle
        self.what = what
        self.logger = logger
    }

    /// Runs `round` (which returns how much it ran) until cancelled; `wake`, when given, waits at
    /// most its argument for new work instead of sleeping.
    public func run(wake: (@Sendable (Duration) async -> Void)? = nil, _ round: @escaping @Sendable () async throws -> Int) async {
        while !Task.isCancelled {
            do {
                let running = Task { try await round() }  // not a child: the loop's cancellation stays out
                if try await running.value == 0 {
                    if let wake { await wake(idle) } else { try await Task.sleep(for: idle) }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("\(what) round failed", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: idle)
            }
        }
    }
}
