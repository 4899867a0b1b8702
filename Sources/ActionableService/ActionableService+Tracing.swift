import Logging
import OTel
import ServiceLifecycle
import Synchronization
import Tracing

/// Tracing (`--otel-endpoint`): swift-otel's OTLP/HTTP exporter, bootstrapped as the process's
/// tracer, so that Hummingbird's request spans and Actionable's own (accept, commit, delivery
/// attempt, APNs or FCM copy) reach the collector.
extension ActionableService {
    /// Whether this process's `InstrumentationSystem` was bootstrapped (it can be once).
    private static let bootstrapped = Mutex(false)

    /// The traces URL of a collector: `endpoint` as given when it ends with `/v1/traces`, with
    /// `/v1/traces` appended otherwise (as `OTEL_EXPORTER_OTLP_ENDPOINT` is read).
    static func tracesURL(_ endpoint: String) -> String {
        if endpoint.hasSuffix("/v1/traces") { return endpoint }
        return endpoint.hasSuffix("/") ? "\(endpoint)v1/traces" : "\(endpoint)/v1/traces"
    }

    /// Bootstraps the process's tracer with an exporter to `endpoint` and returns the service
    /// that exports the spans in batches (and flushes them on shutdown). The `OTEL_*`
    /// environment variables of the OpenTelemetry specification still apply over these settings
    /// (`OTEL_BSP_SCHEDULE_DELAY`, `OTEL_TRACES_SAMPLER`, `OTEL_RESOURCE_ATTRIBUTES`…).
    static func tracingService(endpoint: String, logger: Logger) throws -> any Service {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "actionable"
        configuration.diagnosticLogger = .custom(logger)
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.traces.otlpExporter.endpoint = tracesURL(endpoint)
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        let first = bootstrapped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else {
            throw ConfigurationError("--otel-endpoint: this process's tracer is bootstrapped already (one traced service per process)")
        }
        InstrumentationSystem.bootstrap(backend.factory)
        logger.info("tracing to \(tracesURL(endpoint)) (OTLP/HTTP)")
        return backend.service
    }
}
