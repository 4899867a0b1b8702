import ActionableCore
import Crypto
import Foundation

/// The admin page's sign-in, without server-side state so that it works across instances: the
/// session cookie is `EXPIRY.NONCE.MAC` and the CSRF token of a session is a MAC of its nonce,
/// both keyed by a key derived from the admin token (changing the token signs everyone out).
struct AdminSession: Sendable {
    /// The cookie's name.
    static let cookieName = "actionable_admin"
    /// How long a session lasts.
    static let lifetime: TimeInterval = 8 * 3600

    private let key: SymmetricKey

    init(adminToken: String) {
        key = SymmetricKey(data: SHA256.hash(data: Data("actionable-admin-session|\(adminToken)".utf8)))
    }

    /// A new session's cookie value, valid until `now + lifetime`.
    func newCookie(now: Date = Date()) -> String {
        let expiry = Int(now.timeIntervalSince1970 + Self.lifetime)
        let nonce = Base64URL.encode(Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
        let body = "\(expiry).\(nonce)"
        return "\(body).\(mac(body))"
    }

    /// The nonce of a valid, unexpired session cookie; nil otherwise.
    func nonce(ofCookie value: String, now: Date = Date()) -> String? { session(ofCookie: value, now: now)?.nonce }

    /// The nonce and expiry of a valid, unexpired session cookie; nil otherwise. (A signed-out
    /// session is refused by storage: ``AdminPageController``.)
    func session(ofCookie value: String, now: Date = Date()) -> (nonce: String, expiry: Date)? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expiry = Int(parts[0]), Double(expiry) > now.timeIntervalSince1970,
            let given = Base64URL.decode(parts[2])
        else { return nil }
        guard HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data("\(parts[0]).\(parts[1])".utf8), using: key) else {
            return nil
        }
        return (parts[1], Date(timeIntervalSince1970: Double(expiry)))
    }

    /// The CSRF token of the session with `nonce`.
    func csrfToken(forNonce nonce: String) -> String { mac("csrf|\(nonce)") }

    /// Whether `token` is the CSRF token of the session with `nonce` (compared in constant time).
    func isValidCSRF(_ token: String, forNonce nonce: String) -> Bool {
        guard let given = Base64URL.decode(token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data("csrf|\(nonce)".utf8), using: key)
    }

    private func mac(_ text: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
    }
}
