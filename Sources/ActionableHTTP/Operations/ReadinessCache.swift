import Foundation
import Synchronization

/// `/readyz`'s answer, taken from a state refreshed at most once per ``interval``: however many
/// probes (or attackers) ask, storage sees at most one check a second, and one at a time.
final class ReadinessCache: Sendable {
    /// How long a check's result is served.
    let interval: TimeInterval
    private let now: @Sendable () -> Date

    private struct State {
        var checkedAt: Date?
        var failure: String??  // nil: never checked; .some(nil): ready; .some(text): not ready
        var refreshing: Task<String?, Never>?
    }
    private let state = Mutex(State())

    /// A cache whose results last `interval` (a second), read on `now`'s clock.
    init(interval: TimeInterval = 1, now: @escaping @Sendable () -> Date = { Date() }) {
        self.interval = interval
        self.now = now
    }

    /// `nil` when ready, or why not: the last result when younger than ``interval``, else the
    /// result of `check` (run once for every caller waiting at that moment).
    func failure(check: @escaping @Sendable () async -> String?) async -> String? {
        let now = self.now()
        enum Next {
            case cached(String?)
            case wait(Task<String?, Never>)
        }
        let next = state.withLock { state -> Next in
            if let checkedAt = state.checkedAt, let failure = state.failure, now >= checkedAt, now.timeIntervalSince(checkedAt) < interval {
                return .cached(failure)
            }
            if let refreshing = state.refreshing { return .wait(refreshing) }
            let refreshing = Task { await check() }
            state.refreshing = refreshing
            return .wait(refreshing)
        }
        let task: Task<String?, Never>
        switch next {
        case .cached(let failure): return failure
        case .wait(let refreshing): task = refreshing
        }
        let failure = await task.value
        state.withLock { state in
            if state.refreshing == task {
                state.refreshing = nil
                state.checkedAt = now
                state.failure = .some(failure)
            }
        }
        return failure
    }
}
