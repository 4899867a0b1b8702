public import Hummingbird
public import HummingbirdAuth
public import NIOCore

/// The server's request context: Hummingbird's core storage, the client's address and who
/// authenticated, if anyone.
public struct ActionableRequestContext: AuthRequestContext, RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who the authenticator middleware of the route recognised (`nil` on open routes).
    public var identity: Caller?
    /// The peer of the connection (the proxy's address behind a reverse proxy).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address without its port, as a throttle key ("unknown" when the
    /// connection has none, as in tests that drive the router directly).
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
}

/// Who made a request, as an authenticator established it.
public enum Caller: Hashable, Sendable {
    /// An app, for this user: the `sub` of its own bearer JWT.
    case appUser(String)
    /// An operator with the admin token.
    case admin
    /// The backend, with the backend token.
    case backend
}
