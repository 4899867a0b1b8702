import ActionableCore
import ActionableDelivery
import ActionableRouter
import ActionableStore
import Foundation
import Logging
import NIOCore

extension ActionableService {
    /// The router of the in-process `routes`, or `nil` when there are none; a route that does
    /// not fit the catalog, or a `--forward` pattern that does not, is a ``ConfigurationError``
    /// here, at start-up.
    static func deliveryRouter(
        configuration: ActionableConfiguration, catalog: Catalog, routes: ((inout RouterBuilder) throws -> Void)?
    ) throws -> ActionRouter? {
        for forward in configuration.forwards {
            do {
                _ = try RoutePattern(parsing: forward.pattern, in: catalog)
            } catch {
                throw ConfigurationError("forward \(forward): \(error.description)")
            }
        }
        if let secret = configuration.forwardSecret {
            do {
                _ = try WebhookSigner(secret: secret)
            } catch {
                throw ConfigurationError(error.description)
            }
        }
        guard let routes else { return nil }
        var builder = RouterBuilder(catalog: catalog)
        try routes(&builder)
        do {
            return try builder.build()
        } catch {
            throw ConfigurationError(error.description)
        }
    }

    /// Makes the endpoints the `--forward` flags name, or brings them in line with the flags (URL
    /// and filter; an operator's pause or a breaker stays), and resumes one that only a start
    /// without its flag had paused (versions before 11 did). A pattern one flag names is one
    /// endpoint whose URL follows the flag; a pattern several flags name is one endpoint per URL
    /// (``ForwardRoute/endpointIDs(_:)``), and an endpoint already seeded for the same pattern and
    /// URL under the other id is kept rather than doubled. An endpoint a flag seeded before that
    /// is no longer given is left as it is: one instance of a rolling deploy, or a one-off `serve`,
    /// must not stop delivery for every instance. Endpoints are paused or removed only through
    /// `/v1/endpoints`, the CLI or the admin page.
    static func seedEndpoints(_ forwards: [ForwardRoute], into store: any EndpointStore, at now: Date, logger: Logger) async throws {
        let existing = try await store.endpoints()
        let ids = ForwardRoute.endpointIDs(forwards)
        var flagsOfPattern: [String: Int] = [:]
        for forward in forwards { flagsOfPattern[forward.pattern, default: 0] += 1 }
        // Which endpoint each flag is, in two passes so that no two flags share one and no
        // pattern-and-URL gets a second endpoint:
        // 1. an endpoint seeded for the flag's pattern and URL, whatever its id (one id scheme
        //    or the other; the flags of a pattern went from one to several or back);
        // 2. else the flag's own id; else, for a pattern one flag names, the endpoint a flag of
        //    that pattern seeded before (its URL then follows the flag, as a URL change does);
        //    else a new endpoint.
        var chosen: [String?] = forwards.map { _ in nil }
        var taken: Set<String> = []
        for (index, forward) in forwards.enumerated() {
            let same = existing.filter { $0.seeded && $0.url == forward.url && $0.filter == [forward.pattern] && !taken.contains($0.id) }
            if let endpoint = same.first(where: { $0.id == ids[index] }) ?? same.first {
                chosen[index] = endpoint.id
                taken.insert(endpoint.id)
            }
        }
        for (index, forward) in forwards.enumerated() where chosen[index] == nil {
            let preferred = ids[index]
            if !taken.contains(preferred), existing.contains(where: { $0.id == preferred }) {
                chosen[index] = preferred
            } else if flagsOfPattern[forward.pattern] == 1,
                let earlier = existing.first(where: { $0.seeded && $0.filter == [forward.pattern] && !taken.contains($0.id) })
            {
                chosen[index] = earlier.id
            } else {
                chosen[index] = preferred
            }
            if let id = chosen[index] { taken.insert(id) }
        }
        var seeded: Set<String> = []
        for (forward, choice) in zip(forwards, chosen) {
            guard let id = choice else { continue }
            seeded.insert(id)
            if let current = existing.first(where: { $0.id == id }) {
                if current.url != forward.url || current.filter != [forward.pattern] {
                    _ = try await store.updateEndpoint(id: id, EndpointChange(url: forward.url, filter: [forward.pattern]), at: now)
                }
                if current.paused, try await store.resumeIfPausedByMissingFlag(id: id, at: now) {
                    logger.warning("endpoint \(id) had been paused by a start without its --forward flag: it is resumed")
                }
            } else {
                _ = try await store.createEndpoint(Endpoint(id: id, url: forward.url, filter: [forward.pattern], seeded: true, createdAt: now))
            }
            logger.info("forwarding \(forward.pattern) to \(UpstreamAddress.redacted(forward.url)) (endpoint \(id))")
        }
        for stale in existing where stale.seeded && !seeded.contains(stale.id) {
            logger.notice(
                """
                endpoint \(stale.id) was seeded by a --forward flag this start does not give: it is left as it is (other \
                instances may still give it); pause or remove it through /v1/endpoints
                """)
        }
    }

    /// The endpoint worker over the opened `store`, reporting dead deliveries to `--ops-endpoint`
    /// through `ops` (a bounded queue its own task empties: ``OpsEvents``).
    func endpointWorker(over store: any ActionStore, ops: OpsEvents? = nil) throws -> EndpointWorker {
        let signer = try configuration.forwardSecret.map { secret in try WebhookSigner(secret: secret) }
        var worker = EndpointWorker(
            store: store, policy: configuration.retryPolicy, breaker: configuration.breaker, defaultSigner: signer,
            lease: configuration.deliveryLease.timeInterval, batchSize: configuration.endpointConcurrency, logger: logger)
        worker.metricsFactory = metricsFactory
        worker.activity = activity
        let timeout = TimeAmount(configuration.forwardTimeout)
        worker.forwarder = { url, signers in Forwarder(url: url, signers: signers, timeout: timeout) }
        if let ops {
            // Queued: a slow or stalled ops endpoint never holds the endpoint's deliveries.
            worker.onDead = { dead in ops.enqueue(dead) }
        }
        return worker
    }

    /// The queue of `delivery.dead` events for `--ops-endpoint`, or `nil` without one.
    func opsEvents() throws -> OpsEvents? {
        guard let url = configuration.opsEndpoint, let secret = configuration.forwardSecret else { return nil }
        let signer = try WebhookSigner(secret: secret)
        let forwarder = Forwarder(url: url, signer: signer, timeout: TimeAmount(configuration.forwardTimeout))
        return OpsEvents(notifier: OpsNotifier(forwarder: forwarder, logger: logger), logger: logger)
    }
}

/// `delivery.dead` events on their way to `--ops-endpoint`: a bounded queue (the newest
/// ``capacity`` kept; an older one dropped is logged), sent one at a time by ``run()``, so that
/// however many deliveries go dead and however slowly the ops endpoint answers, memory and tasks
/// stay bounded. The events are best effort: the dead deliveries themselves are in storage.
final class OpsEvents: Sendable {
    static let capacity = 1024
    private let notifier: OpsNotifier
    private let logger: Logger
    private let events: AsyncStream<DeadDelivery>
    private let sink: AsyncStream<DeadDelivery>.Continuation

    init(notifier: OpsNotifier, logger: Logger) {
        self.notifier = notifier
        self.logger = logger
        (events, sink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.capacity))
    }

    func enqueue(_ dead: DeadDelivery) {
        if case .dropped(let older) = sink.yield(dead) {
            logger.error(
                "delivery.dead events are queued faster than the ops endpoint takes them: one was dropped",
                metadata: ["response.id": "\(older.action.id)", "endpoint": "\(older.endpointID)"])
        }
    }

    /// Sends the queued events until ``finish()`` and the queue is empty.
    func run() async {
        for await dead in events { await notifier.notify(dead) }
    }

    /// No more events: ``run()`` returns once the queued ones are sent.
    func finish() { sink.finish() }
}
