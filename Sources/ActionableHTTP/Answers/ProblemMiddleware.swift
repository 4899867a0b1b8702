import Hummingbird
import Logging

/// The outermost middleware: whatever a route or another middleware throws leaves the server
/// as a problem document (``Problem``). Hummingbird's own errors (`HTTPError`, and other 4xx
/// `HTTPResponseError`s such as the 413 of a body collected past its limit) keep their status
/// and message; anything else is a 500
/// `internal-error` whose text stays in the log. Tests and the fuzz target
/// `fuzz-http-application` hold the server to never reaching that last case.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            throw problem
        } catch let error as HTTPError {
            throw Self.problem(for: error)
        } catch let error as any HTTPResponseError where error.status.code < 500 {
            // Such as NIO's "too many bytes" from a body collected past its limit.
            throw Self.problem(for: HTTPError(error.status))
        } catch {
            context.logger.error("request failed unexpectedly", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            throw Problem(.internalError, "the request could not be handled; the server logged why")
        }
    }

    /// The problem document of one of Hummingbird's errors.
    static func problem(for error: HTTPError) -> Problem {
        Problem(.http(error.status), error.body ?? error.status.reasonPhrase, headers: error.headers)
    }
}
