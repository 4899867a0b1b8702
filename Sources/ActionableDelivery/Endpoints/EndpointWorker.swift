import ActionableCore
import ActionableRouter
public import ActionableStore
import CoreMetrics
public import Foundation
public import Logging
import Synchronization
import Tracing

/// Delivers each response to each endpoint that takes it: every endpoint runs on its own (a slow
/// or failing one never holds the others up), claiming what its pause, circuit breaker and rate
/// limit allow (`EndpointGate`), POSTing it signed (``Forwarder``), and recording the outcome.
///
/// - 2xx → delivered; the endpoint's failure streak ends and an open breaker closes.
/// - 408, 429, 5xx, no answer → tried again on ``RetryPolicy``'s backoff; after
///   `BreakerSettings.failures` failures in a row the breaker opens, and the deliveries are held
///   (pending, their attempt given back) until a probe succeeds.
/// - Any other 4xx → dead. A delivery that goes dead is reported to ``onDead``.
@dynamicMemberLookup
public struct EndpointWorker: Sendable {
    /// A field of its ``settings``, read or changed as its own: `worker.owner`,
    /// `worker.metricsFactory = …`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<OutboxSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    public let store: any EndpointStore
    /// Its retry schedule, lease, window, jitter, logger and metrics (read as its own fields too:
    /// `worker.owner`, `worker.metricsFactory`).
    public var settings: OutboxSettings
    public let breaker: BreakerSettings
    /// Signs for endpoints without a secret of their own (`--forward-secret`).
    public let defaultSigner: WebhookSigner?
    /// Told of each delivery that went dead (the `delivery.dead` event, ``OpsNotifier``).
    public var onDead: (@Sendable (DeadDelivery) async -> Void)?
    /// The earliest time a retry this worker scheduled comes due (``WebhookTransport`` notes it).
    let due = DueTime()
    /// Makes the forwarder of an endpoint (a test may give its own client or clock).
    public var forwarder: @Sendable (_ url: String, _ signers: [WebhookSigner]) -> Forwarder = { Forwarder(url: $0, signers: $1) }

    /// A worker over `store`.
    public init(
        store: any EndpointStore, policy: RetryPolicy = RetryPolicy(), breaker: BreakerSettings = BreakerSettings(),
        defaultSigner: WebhookSigner?, owner: String = "endpoints-\(UUID().uuidString.prefix(8))", lease: TimeInterval = 60,
        batchSize: Int = 32, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, logger: Logger
    ) {
        self.store = store
        self.breaker = breaker
        self.defaultSigner = defaultSigner
        settings = OutboxSettings(policy: policy, owner: owner, lease: lease, concurrency: batchSize, jitter: jitter, logger: logger)
    }

    /// Runs until cancelled: each endpoint that is not paused and not busy is given its due
    /// deliveries — when `wake` says a response was accepted, and at least every `idle` — and a
    /// busy endpoint keeps claiming until nothing is due. The endpoints are read again every
    /// `idle` (a change through the API, or by another instance, is seen within it).
    ///
    /// Cancelling stops the claims, not the attempts in flight: they finish and are recorded
    /// before this returns.
    ///
    /// `wake` returns what the accepted responses were (`category.action`), or `nil` for
    /// everything: a wake starts only the endpoints whose filter takes one of them and whose
    /// breaker is not open; the poll every `idle` starts every endpoint the read finds a due
    /// delivery for (`EndpointStore.polledEndpoints(at:)`: an idle poll is one read).
    public func run(wake: (@Sendable (Duration) async -> Set<OutboxSignal.Key>?)? = nil, idle: Duration = .milliseconds(200)) async {
        let busy = BusyEndpoints()
        let clock = ContinuousClock()
        var endpoints: [Endpoint] = []
        var deliverable: [Endpoint] = []  // the endpoints this instance can sign for
        var readAt: ContinuousClock.Instant?
        var woken: Set<OutboxSignal.Key>?  // nil: everything
        var unsignable: Set<String> = []  // endpoints already logged as ones this instance cannot sign for
        while !Task.isCancelled {
            // The endpoints this round's read found work for (`nil`: not read this round, or the
            // driver cannot say): a poll claims only for those, so an idle poll writes nothing.
            var withWork: Set<String>?
            // Read again every `idle`, and on every wake for everything (a poll, a retry or probe come
            // due, another instance's change): an endpoint resumed, or its breaker moved, elsewhere.
            if woken == nil || readAt.map({ clock.now - $0 >= idle }) ?? true {
                do {
                    let polled = try await store.polledEndpoints(at: Date())
                    endpoints = polled.map(\.endpoint)
                    withWork = Set(polled.filter(\.hasDueDeliveries).map(\.endpoint.id))
                } catch {
                    settings.logger.error("could not read the endpoints", metadata: ["error": "\(error)"])
                }
                readAt = clock.now
                // An endpoint this instance cannot sign for is left to the instances that can: its
                // deliveries are not claimed here, and its breaker never moves for a local fault.
                // Decided once per read, not on every wake (each check keys an HMAC).
                deliverable = endpoints.filter { endpoint in
                    guard canSign(for: endpoint) else {
                        if unsignable.insert(endpoint.id).inserted { logCannotSign(endpoint) }
                        return false
                    }
                    unsignable.remove(endpoint.id)
                    return true
                }
            }
            let now = Date()
            // A retry this worker scheduled, or a breaker's probe, came due: every endpoint.
            let retryDue = due.passed(now)
            if retryDue { woken = nil }
            // A poll, or a wake for everything, starts the endpoints the read found work for; an
            // accept's wake, or a retry come due, starts those it names whatever the read said.
            let starts = woken == nil && !retryDue ? withWork : nil
            for endpoint in deliverable
            where !endpoint.paused && Self.wakes(endpoint, for: woken, now: now) && starts.map({ $0.contains(endpoint.id) }) ?? true
                && busy.take(endpoint.id)
            {
                // Not a child task: the loop's cancellation must not cut an attempt short.
                Task {
                    repeat {
                        await self.drain(endpoint.id, while: { !busy.stopping })
                    } while busy.release(endpoint.id)  // woken while it was ending: once more
                }
            }
            // Until the next wake-up, at most `idle`, and no later than the next retry this worker
            // scheduled or the next probe of an open breaker (with a poll of seconds, they would
            // otherwise wait for it).
            let probe = endpoints.compactMap(\.openUntil).filter { $0 > now }.min()
            let next = [due.earliest, probe].compactMap { $0 }.min()
            let wait = next.map { min(idle, .milliseconds(max(1, Int64($0.timeIntervalSince(Date()) * 1000) + 1))) } ?? idle
            if let next, next <= Date().addingTimeInterval(idle.timeInterval) { due.note(next) }
            if let wake {
                woken = await wake(wait)
            } else {
                do { try await Task.sleep(for: wait) } catch { break }
                woken = nil
            }
        }
        await busy.stop()
    }

    /// Delivers endpoint `endpointID`'s due deliveries until none is due (or `proceed` says stop);
    /// returns how many it ran.
    ///
    /// The outbox's loop (``OutboxLoop``) over the endpoint's ``WebhookTransport``: up to
    /// ``OutboxSettings/concurrency`` attempts in flight (`--endpoint-concurrency`), refilled as each answers; claims
    /// take what the pause, the breaker and the rate limit allow (a rate-limited delivery waits for
    /// its slot within its attempt); outcomes are recorded in batches.
    @discardableResult
    public func drain(_ endpointID: String, while proceed: @Sendable () -> Bool = { true }) async -> Int {
        await OutboxLoop(transport(for: endpointID)).drain(while: proceed)
    }

    /// The transport that delivers endpoint `endpointID`'s deliveries.
    public func transport(for endpointID: String) -> WebhookTransport {
        WebhookTransport(worker: self, endpointID: endpointID)
    }

    /// Whether a wake for `keys` (`nil`: everything) starts `endpoint`'s drain: its filter takes one
    /// of them, and its breaker is not open (its probe comes with the poll).
    public static func wakes(_ endpoint: Endpoint, for keys: Set<OutboxSignal.Key>?, now: Date) -> Bool {
        guard let keys else { return true }
        if let openUntil = endpoint.openUntil, openUntil > now { return false }
        return keys.contains { endpoint.takes(category: $0.category, action: $0.action) }
    }

    /// Whether this instance can sign `endpoint`'s calls: it has a secret of its own, or this
    /// instance has `--forward-secret`.
    public func canSign(for endpoint: Endpoint) -> Bool { (try? signers(of: endpoint)) != nil }

    /// Says, at error level, that `endpoint`'s deliveries are left to other instances.
    func logCannotSign(_ endpoint: Endpoint) {
        settings.logger.error(
            """
            endpoint \(endpoint.id) has no usable secret of its own and this instance has no --forward-secret: this \
            instance does not deliver to it (other instances that can sign do; its breaker is not touched). Start \
            with --forward-secret, or give the endpoint a secret through /v1/endpoints
            """)
    }

    /// The signers of `endpoint`: its secret (or the default) first, then the one it replaced.
    func signers(of endpoint: Endpoint) throws -> [WebhookSigner] {
        var signers: [WebhookSigner] = []
        if let secret = endpoint.secret {
            signers.append(try WebhookSigner(secret: secret))
        } else if let defaultSigner {
            signers.append(defaultSigner)
        }
        if let previous = endpoint.previousSecret {
            if previous == Endpoint.serverSecret {
                if let defaultSigner { signers.append(defaultSigner) }
            } else {
                signers.append(try WebhookSigner(secret: previous))
            }
        }
        guard !signers.isEmpty else {
            throw UpstreamFailure(description: "endpoint \(endpoint.id) has no secret and the server has no --forward-secret")
        }
        return signers
    }
}

/// A delivery that went dead: what `delivery.dead` reports.
public struct DeadDelivery: Hashable, Sendable {
    /// The response (its attempts are this delivery's).
    public var action: AcceptedResponse
    public var endpointID: String
    public var reason: String
    public var at: Date

    /// `action`'s delivery to `endpointID`, dead at `at` for `reason`.
    public init(action: AcceptedResponse, endpointID: String, reason: String, at: Date) {
        self.action = action
        self.endpointID = endpointID
        self.reason = reason
        self.at = at
    }
}

/// The endpoints with a drain running, so that each has one at a time, and a way to wait for the
/// running ones on shutdown.
final class BusyEndpoints: Sendable {
    private struct State {
        var busy: Set<String> = []
        /// Busy endpoints asked for again while their drain ran.
        var again: Set<String> = []
        var stopping = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Marks `id` busy; `false` when it was already (then its drain runs once more when it
    /// ends: the wake may have come after its last claim) or the worker is stopping.
    func take(_ id: String) -> Bool {
        state.withLock { state in
            guard !state.stopping else { return false }
            guard state.busy.insert(id).inserted else {
                state.again.insert(id)
                return false
            }
            return true
        }
    }

    /// Ends `id`'s drain, unless it was asked for again meanwhile: then `true`, and it stays busy.
    func release(_ id: String) -> Bool {
        let (again, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
            if !state.stopping, state.again.remove(id) != nil { return (true, []) }
            state.again.remove(id)
            state.busy.remove(id)
            guard state.busy.isEmpty else { return (false, []) }
            defer { state.waiters = [] }
            return (false, state.waiters)
        }
        for waiter in waiters { waiter.resume() }
        return again
    }

    var stopping: Bool { state.withLock { $0.stopping } }

    /// Stops new drains and returns once the running ones have finished.
    func stop() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                state.stopping = true
                guard !state.busy.isEmpty else { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// The earliest time something a worker scheduled comes due: noted when an outcome is recorded,
/// taken when the worker's loop passes it.
final class DueTime: Sendable {
    private let earliestTime = Mutex<Date?>(nil)

    /// Notes `date`, kept when it is earlier than the one noted.
    func note(_ date: Date) { earliestTime.withLock { $0 = min($0 ?? date, date) } }

    /// The earliest time noted.
    var earliest: Date? { earliestTime.withLock { $0 } }

    /// Whether the earliest time noted is `now` or past; it is forgotten then.
    func passed(_ now: Date) -> Bool {
        earliestTime.withLock { earliest in
            guard let time = earliest, time <= now else { return false }
            earliest = nil
            return true
        }
    }
}
