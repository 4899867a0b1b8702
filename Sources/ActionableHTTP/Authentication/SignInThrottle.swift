import Foundation
import Synchronization

/// Slows down guessing of the admin token: after ``limit`` failed sign-ins from one client
/// address within ``window``, that address is refused (429 with `Retry-After`) until the oldest
/// of those failures is a window old. Other addresses are not affected.
///
/// A sign-in takes its place (``reserve(for:now:)``) before its body is read, and sign-ins still
/// being judged count against the limit: 100 wrong tokens sent at once from one address get at
/// most ``limit`` judgements, the rest 429.
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
    /// Sign-ins reserved and not yet judged, per address.
    private let pending = Mutex<[String: Int]>([:])

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

    /// Takes a place for a sign-in from `address` before its body is read: `nil` when it may be
    /// judged (then exactly one of ``recordFailure(from:now:)``, ``reset(_:)`` or
    /// ``release(_:)`` must follow), or the seconds it must wait. Failures and sign-ins in
    /// progress together stay within ``limit``.
    func reserve(for address: String, now: Date = Date()) -> Int? {
        failures.withLock { failures in
            let recent = (failures[address] ?? []).filter { now.timeIntervalSince($0) < window }
            failures[address] = recent.isEmpty ? nil : recent
            return pending.withLock { pending -> Int? in
                let inProgress = pending[address] ?? 0
                guard recent.count + inProgress >= limit else {
                    if pending[address] == nil, pending.count >= capacity { return Int(window) }  // too many addresses at once
                    pending[address] = inProgress + 1
                    return nil
                }
                guard let oldest = recent.first, recent.count >= limit else { return 1 }  // judgements in progress: soon
                return max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
            }
        }
    }

    /// Gives back a place taken by ``reserve(for:now:)`` without a judgement (the form could not
    /// be read).
    func release(_ address: String) {
        pending.withLock { pending in
            let left = (pending[address] ?? 1) - 1
            pending[address] = left > 0 ? left : nil
        }
    }

    /// Records a failed sign-in from `address` (giving back the place it reserved).
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
        release(address)
    }

    /// Forgets the failures of `address` (after it signed in, giving back the place it reserved).
    func reset(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
        release(address)
    }
}
