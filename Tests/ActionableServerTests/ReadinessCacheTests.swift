import Foundation
import Synchronization
import Testing

@testable import ActionableHTTP

/// `/readyz` is answered from a state refreshed at most once a second: a flood of probes is one
/// storage check, and concurrent probes share the check in flight.
struct ReadinessCacheTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    @Test func aHundredProbesInOneSecondAreOneCheck() async {
        let clock = Clock()
        let cache = ReadinessCache(now: { clock.now.withLock { $0 } })
        let checks = Mutex(0)
        let check: @Sendable () async -> String? = {
            checks.withLock { $0 += 1 }
            return nil
        }
        for _ in 0..<100 { #expect(await cache.failure(check: check) == nil) }
        #expect(checks.withLock { $0 } == 1)
        clock.advance(0.999)
        #expect(await cache.failure(check: check) == nil)
        #expect(checks.withLock { $0 } == 1)
        clock.advance(0.001)
        #expect(await cache.failure(check: check) == nil)
        #expect(checks.withLock { $0 } == 2)
    }

    @Test func concurrentProbesShareTheCheckInFlight() async {
        let clock = Clock()
        let cache = ReadinessCache(now: { clock.now.withLock { $0 } })
        let checks = Mutex(0)
        let (gate, open) = AsyncStream<Void>.makeStream()
        let check: @Sendable () async -> String? = {
            checks.withLock { $0 += 1 }
            for await _ in gate { break }  // held until every probe is waiting on it
            return "the database is down"
        }
        let answers = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<50 { group.addTask { await cache.failure(check: check) } }
            // The first probe started the check; once it has, the others can only wait on it.
            while checks.withLock({ $0 }) == 0 { await Task.yield() }
            open.yield()
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(answers.count == 50)
        #expect(answers.allSatisfy { $0 == "the database is down" })
        #expect(checks.withLock { $0 } == 1)
    }
}
