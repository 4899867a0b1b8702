import Hummingbird
import HummingbirdAuth

/// The server's request context: Hummingbird's core storage and who authenticated, if anyone.
public struct ActionableRequestContext: AuthRequestContext, RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who the authenticator middleware of the route recognised (`nil` on open routes).
    public var identity: Caller?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
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
