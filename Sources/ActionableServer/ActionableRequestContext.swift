import Hummingbird

/// The server's request context.
public struct ActionableRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
