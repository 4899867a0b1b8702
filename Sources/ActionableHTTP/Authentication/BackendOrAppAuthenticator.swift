import ActionableTokens
import Hummingbird
import HummingbirdAuth

/// Admits the backend (its `--backend-token`, compared in constant time) as ``Caller/backend``
/// and, where the deployment has app JWT keys, an app (its bearer JWT) as
/// ``Caller/appUser(_:)``; anyone else gets 401 before the body is read.
struct BackendOrAppAuthenticator: AuthenticatorMiddleware {
    typealias Context = ActionableRequestContext
    let backendToken: String?
    let appTokens: AppTokens?

    func authenticate(request: Request, context: Context) async throws -> Caller? {
        guard let bearer = request.headers.bearer else {
            throw Problem(
                .credentialsMissing, "send Authorization: Bearer <the server's --backend-token> from the backend, or the app's JWT from the app")
        }
        if let backendToken, AdminTokenAuthenticator.constantTimeEqual(bearer.token, backendToken) { return .backend }
        guard let appTokens else {
            throw Problem(
                .credentialsInvalid,
                backendToken == nil
                    ? "this server has no --backend-token and no --app-jwt-key: start it with them to use the badge and device endpoints"
                    : "the bearer token is not the server's --backend-token (and this server takes no app JWTs)")
        }
        do {
            return .appUser(try await appTokens.user(of: bearer.token))
        } catch {
            throw Problem(.credentialsInvalid, "the bearer token is neither the backend token nor a valid app JWT (\(error.description))")
        }
    }
}
