public import ActionableStore
public import CoreMetrics
public import Foundation
public import Logging

/// What every worker of the outbox is set up with, whatever it carries: its retry schedule, its
/// name in leases, how long a lease holds, how many attempts it keeps in flight, the jitter draw,
/// its logger and where its metrics go. Every ``Transport`` holds one (the
/// ``EndpointWorker`` for its endpoints' transports), and ``OutboxLoop`` runs on it.
public struct OutboxSettings: Sendable {
    /// When a failed attempt is tried again, and when it stops (``RetryPolicy/retryFor``).
    public var policy: RetryPolicy
    /// The worker's name in leases: unique per process.
    public var owner: String
    /// How long a claim is held before another worker may take it over.
    public var lease: TimeInterval
    /// The most attempts in flight (`--endpoint-concurrency` for an endpoint).
    public var concurrency: Int
    /// The random draw in `0..<1` for the jitter (injectable for tests).
    public var jitter: @Sendable () -> Double
    public var logger: Logger
    /// Where the worker's metrics go; none when `nil`.
    public var metricsFactory: (any MetricsFactory)? {
        didSet { counters = metricsFactory.map(CounterCache.init) }
    }
    /// The counters made so far, reused for every attempt (``CounterCache``).
    var counters: CounterCache?
    /// Where each recorded outcome is counted for the admin page's charts (per minute, by way
    /// out; an endpoint's by endpoint); none when `nil`.
    public var activity: ActivityLog?

    /// Settings for a worker named `owner` in leases.
    public init(
        policy: RetryPolicy = RetryPolicy(), owner: String, lease: TimeInterval = 60, concurrency: Int = 32,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger, metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.policy = policy
        self.owner = owner
        self.lease = lease
        self.concurrency = concurrency
        self.jitter = jitter
        self.logger = logger
        self.metricsFactory = metricsFactory
        self.counters = metricsFactory.map(CounterCache.init)
    }
}
