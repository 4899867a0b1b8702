import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each known path answers, filled as routes are added (``RouteRecorder``) and read
/// by ``MethodNotAllowedMiddleware``.
final class KnownRoutes: Sendable {
    private struct Entry {
        var segments: [Substring]
        var methods: Set<HTTPRequest.Method>
    }

    private let entries = Mutex<[Entry]>([])

    /// Records that `path` (a route pattern: `:name` and `{name}` segments match anything) takes `method`.
    func add(_ path: String, _ method: HTTPRequest.Method) {
        let segments = Self.segments(path)
        entries.withLock { entries in
            if let index = entries.firstIndex(where: { $0.segments == segments }) {
                entries[index].methods.insert(method)
            } else {
                entries.append(Entry(segments: segments, methods: [method]))
            }
        }
    }

    /// The methods of the route that `path` resolves to (HEAD wherever GET), sorted; empty for
    /// an unknown path. As in the router, a literal segment wins over a capture, so
    /// `/v1/badge/read` is the read route, not `/v1/badge/{user}`.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let requested = Self.segments(path)
        let best: Entry? = entries.withLock { entries in
            let matching = entries.filter { entry in
                entry.segments.count == requested.count
                    && zip(entry.segments, requested).allSatisfy { pattern, segment in Self.isCapture(pattern) || pattern == segment }
            }
            // The most specific: literal segments first, compared left to right.
            return matching.max { lhs, rhs in
                let left = lhs.segments.map { Self.isCapture($0) ? 0 : 1 }
                let right = rhs.segments.map { Self.isCapture($0) ? 0 : 1 }
                return left.lexicographicallyPrecedes(right)
            }
        }
        var methods = best?.methods ?? []
        if methods.contains(.get) { methods.insert(.head) }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }

    private static func isCapture(_ segment: Substring) -> Bool { segment.hasPrefix(":") || segment.hasPrefix("{") }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}

/// Adds routes to a router and records their paths and methods in ``KnownRoutes``.
struct RouteRecorder<Context: RequestContext>: RouterMethods {
    let router: Router<Context>
    let known: KnownRoutes

    @discardableResult func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Responder) -> Self
    where Responder.Context == Context {
        known.add(path.description, method)
        router.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}

/// Turns the router's "not found" into `405 Method Not Allowed` with an `Allow` header when the
/// path exists with other methods, and into a `404` problem document when it does not.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let known: KnownRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.coreContext.endpointPath.value == "NotFound" {
            let allowed = known.methods(for: request.uri.path)
            guard !allowed.isEmpty else {
                throw Problem(.notFound, "no endpoint has the path \(request.uri.path)")
            }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            throw Problem(.methodNotAllowed, "\(request.uri.path) takes \(list), not \(request.method.rawValue)", headers: [.allow: list])
        }
    }
}
