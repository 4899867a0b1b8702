import ActionableDelivery
import ActionableServer
import ActionableTokens
import Foundation

/// Everything `actionable serve` can be told, as one value: a Swift program that embeds the
/// server fills it in code; the command line fills it from flags, the environment and a file.
///
/// ```swift
/// var configuration = ActionableConfiguration()
/// configuration.categories = "Categories"
/// configuration.storage = "postgres://actionable:secret@db.internal:5432/actionable"
/// configuration.tokenKeys = [try ActionTokenKey(parsing: "k1=\(secret)")]
/// let service = try await ActionableService(configuration: configuration, logger: logger)
/// ```
public struct ActionableConfiguration: Sendable {
    /// The directory of category files.
    public var categories: String = "Categories"
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on; 0 picks a free one (see ``ActionableService/onServerRunning``).
    public var port: Int = 8080
    /// Where responses are stored: `sqlite:PATH`, `postgres://user:password@host:port/database`
    /// or `memory:` (see ``StorageDriverRegistry``).
    public var storage: String = "sqlite:.actionable/actionable.sqlite"
    /// How long start-up waits for storage before it gives up; `nil` waits for as long as it
    /// takes, answering `/readyz` with 503 meanwhile.
    public var storageTimeout: Duration?
    /// Keys verifying action tokens; the first signs. Empty: the development key under
    /// ``developmentKeyDirectory``, with a warning.
    public var tokenKeys: [ActionTokenKey] = []
    /// Where the development key is kept when ``tokenKeys`` is empty.
    public var developmentKeyDirectory: String = ".actionable"
    /// Keys verifying the app's own bearer JWT; when any are given, every action response needs one.
    public var appJWTKeys: [ActionTokenKey] = []
    /// Upstreams that accepted responses are forwarded to, signed with ``forwardSecret``.
    public var forwards: [ForwardRoute] = []
    /// The Standard Webhooks secret (`whsec_…`) signing forwarded responses.
    public var forwardSecret: String?
    /// The retry schedule of deliveries.
    public var retryPolicy: RetryPolicy = RetryPolicy()
    /// How long a delivery claim is held before another instance may take it over.
    public var deliveryLease: Duration = .seconds(60)
    /// The HTTP layer's limits, the admin token and the `Retry-After` policy.
    public var server: ServerSettings = ServerSettings()
    /// Serve HTTPS with this certificate and key instead of plain HTTP.
    public var tls: TLSFiles?

    /// The defaults of `actionable serve`.
    public init() {}

    /// A PEM certificate chain and its private key.
    public struct TLSFiles: Sendable, Hashable {
        /// The certificate chain file (PEM), the server's own certificate first.
        public var certificate: String
        /// The private key file (PEM).
        public var key: String

        /// The files at `certificate` and `key`.
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    /// Checks what can be checked before anything starts, with a message that names the setting.
    public func validate() throws(ConfigurationError) {
        guard (0...65535).contains(port) else { throw ConfigurationError("port must be between 1 and 65535, not \(port)") }
        guard deliveryLease >= .seconds(1) else { throw ConfigurationError("delivery lease must be at least 1 second") }
        if !forwards.isEmpty && forwardSecret == nil { throw ConfigurationError.missingForwardSecret }
        if let storageTimeout, storageTimeout <= .zero {
            throw ConfigurationError("storage timeout must be more than 0 seconds")
        }
        guard server.maximumBodySize > 0 else { throw ConfigurationError("the maximum body size must be positive") }
        guard server.maximumConcurrentAccepts > 0 else {
            throw ConfigurationError("the most accepts in flight must be positive")
        }
    }
}

/// A setting that cannot work, with what to change.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    /// An error described by `description`.
    public init(_ description: String) { self.description = description }

    /// Forwards were given without the secret that signs them.
    static let missingForwardSecret = ConfigurationError("forwarding needs a forward secret (whsec_…) to sign what it sends")
}
