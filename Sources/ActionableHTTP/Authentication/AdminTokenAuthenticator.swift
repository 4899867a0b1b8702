import Crypto
import Hummingbird
import HummingbirdAuth

/// Admits operators who send the admin token as `Authorization: Bearer …` (compared in constant
/// time) as ``Caller/admin``; anyone else gets 401.
struct AdminTokenAuthenticator: AuthenticatorMiddleware {
    typealias Context = ActionableRequestContext
    let adminToken: String

    func authenticate(request: Request, context: Context) async throws -> Caller? {
        guard let bearer = request.headers.bearer, Self.constantTimeEqual(bearer.token, adminToken) else {
            throw Problem(.adminToken, "send Authorization: Bearer <the server's --admin-token>")
        }
        return .admin
    }

    /// Compares digests, so the time taken does not depend on where the strings differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(SHA256.hash(data: Array(a.utf8)))
        let right = Array(SHA256.hash(data: Array(b.utf8)))
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
