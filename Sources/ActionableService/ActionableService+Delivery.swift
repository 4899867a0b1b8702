import ActionableCore
import ActionableDelivery
import ActionableRouter
import ActionableStore
import Foundation
import Logging

extension ActionableService {
    /// The router of the configured forwards and the in-process `routes`, or `nil` when there are
    /// neither; a forward or route that does not fit the catalog is a ``ConfigurationError`` here,
    /// at start-up.
    static func deliveryRouter(
        configuration: ActionableConfiguration, catalog: Catalog, logger: Logger, routes: ((inout RouterBuilder) throws -> Void)?
    ) throws -> ActionRouter? {
        guard !configuration.forwards.isEmpty || routes != nil else { return nil }
        var builder = RouterBuilder(catalog: catalog)
        if !configuration.forwards.isEmpty {
            guard let secret = configuration.forwardSecret else { throw ConfigurationError.missingForwardSecret }
            let signer: WebhookSigner
            do {
                signer = try WebhookSigner(secret: secret)
            } catch {
                throw ConfigurationError(error.description)
            }
            for forward in configuration.forwards {
                let pattern: RoutePattern
                do {
                    pattern = try RoutePattern(parsing: forward.pattern, in: catalog)
                } catch {
                    throw ConfigurationError("forward \(forward): \(error.description)")
                }
                builder.on(pattern, Forwarder(url: forward.url, signer: signer).handler)
                logger.info("forwarding \(pattern) to \(UpstreamAddress.redacted(forward.url))")
            }
        }
        try routes?(&builder)
        do {
            return try builder.build()
        } catch {
            throw ConfigurationError(error.description)
        }
    }
}
