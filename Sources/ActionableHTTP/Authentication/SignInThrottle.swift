import Foundation
import Synchronization

/// Slows down guessing of the admin token: after ``limit`` failed sign-ins from one client
/// address within ``window``, that address is refused (429 with `Retry-After`) until the oldest
/// of those failures is a window old. Other addresses are not affected.
///
/// Memory is bounded: failures older than the window are dropped, and at most ``capacity``
/// addresses are tracked (past it, the address whose latest failure is oldest is forgotten).
final class SignInThrottle: Sendable {
    /// Failures allowed within ``window`` before the address waits.
    let limit: Int
    /// How long a failure counts.
    let window: TimeInterval
    /// The most addresses tracked at once.
    let capacity: Int

    private let failures = Mutex<[String: [Date]]>([:])

    init(limit: Int = 5, window: TimeInterval = 60, capacity: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
    }

    /// The seconds `address` must wait before it may try again; `nil` when it may try now.
    func retryAfter(for address: String, now: Date = Date()) -> Int? {
        failures.withLock { failures in
            let recent = (failures[address] ?? []).filter { now.timeIntervalSince($0) < window }
            failures[address] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    /// Records a failed sign-in from `address`.
    func recordFailure(from address: String, now: Date = Date()) {
        failures.withLock { failures in
            if failures[address] == nil, failures.count >= capacity {
                let stalest = failures.min { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }
                if let stalest { failures[stalest.key] = nil }
            }
            var recent = (failures[address] ?? []).filter { now.timeIntervalSince($0) < window }
            recent.append(now)
            failures[address] = Array(recent.suffix(limit))
        }
    }

    /// Forgets the failures of `address` (after it signed in).
    func reset(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }
}
