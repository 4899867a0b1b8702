import ActionableTokens
import Hummingbird
import HummingbirdAuth

/// Requires the app's own bearer JWT (when a deployment configures app JWT keys) and puts its
/// user on the context as ``Caller/appUser(_:)``; the action token's user must then match it.
/// Without a valid token the request ends here with 401, before its body is read.
struct AppTokenAuthenticator: AuthenticatorMiddleware {
    typealias Context = ActionableRequestContext
    let tokens: AppTokens

    func authenticate(request: Request, context: Context) async throws -> Caller? {
        guard let bearer = request.headers.bearer else {
            throw Problem(.appTokenMissing, "send the app's own token as Authorization: Bearer <JWT>")
        }
        do {
            return .appUser(try await tokens.user(of: bearer.token))
        } catch {
            throw Problem(.appToken("\(error.code)"), error.description)
        }
    }
}
