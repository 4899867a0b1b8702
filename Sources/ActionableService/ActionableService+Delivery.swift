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
    /// and filter; a pause or a breaker stays). An endpoint a flag seeded before that is no longer
    /// given is paused, its deliveries kept, with a warning: only an operator lets them go.
    static func seedEndpoints(_ forwards: [ForwardRoute], into store: any EndpointStore, at now: Date, logger: Logger) async throws {
        let existing = try await store.endpoints()
        var seeded: Set<String> = []
        for forward in forwards {
            let id = forward.endpointID
            seeded.insert(id)
            if let current = existing.first(where: { $0.id == id }) {
                if current.url != forward.url || current.filter != [forward.pattern] {
                    _ = try await store.updateEndpoint(id: id, EndpointChange(url: forward.url, filter: [forward.pattern]), at: now)
                }
            } else {
                _ = try await store.createEndpoint(Endpoint(id: id, url: forward.url, filter: [forward.pattern], seeded: true, createdAt: now))
            }
            logger.info("forwarding \(forward.pattern) to \(UpstreamAddress.redacted(forward.url)) (endpoint \(id))")
        }
        for stale in existing where stale.seeded && !seeded.contains(stale.id) && !stale.paused {
            _ = try await store.updateEndpoint(id: stale.id, EndpointChange(paused: true), at: now)
            logger.warning(
                """
                endpoint \(stale.id) was seeded by a --forward flag that is no longer given: it is paused and its deliveries \
                kept; resume or change it through /v1/endpoints
                """)
        }
    }

    /// The endpoint worker over the opened `store`, reporting dead deliveries to `--ops-endpoint`.
    func endpointWorker(over store: any ActionStore) throws -> EndpointWorker {
        let signer = try configuration.forwardSecret.map { secret in try WebhookSigner(secret: secret) }
        var worker = EndpointWorker(
            store: store, policy: configuration.retryPolicy, breaker: configuration.breaker, defaultSigner: signer,
            lease: configuration.deliveryLease.timeInterval, logger: logger)
        worker.metricsFactory = metricsFactory
        let timeout = TimeAmount(configuration.forwardTimeout)
        worker.forwarder = { url, signers in Forwarder(url: url, signers: signers, timeout: timeout) }
        if let url = configuration.opsEndpoint, let signer {
            let notifier = OpsNotifier(forwarder: Forwarder(url: url, signer: signer, timeout: timeout), logger: logger)
            // Told on its own: a slow or stalled ops endpoint never holds the endpoint's deliveries
            // (each of its tries ends within the forward timeout).
            worker.onDead = { dead in
                Task { await notifier.notify(dead) }
            }
        }
        return worker
    }
}
