public import Foundation

/// The admin page's sessions that were signed out, kept in storage so that every instance
/// refuses them: a session cookie is signed, not stored, so without this list a cookie copied
/// before sign-out (and its CSRF token) would keep working until it expires.
public protocol AdminSignOuts: Sendable {
    /// Records that the session `session` (its cookie's nonce) is signed out until `until` (the
    /// cookie's own expiry, after which it is refused anyway); forgets the sign-outs whose
    /// `until` is before `now`. Recording one twice is one sign-out.
    func recordSignOut(session: String, until: Date, now: Date) async throws

    /// Whether the session `session` was signed out (and its record not yet forgotten).
    func isSignedOut(session: String) async throws -> Bool
}

/// The `admin_sign_outs` table as every SQL driver stores it.
package enum AdminSignOutTable {

    /// Records a sign-out; parameters: session, until.
    package static func insert(_ dialect: SQLDialect) -> String {
        "INSERT INTO admin_sign_outs (session, until_at) VALUES (\(dialect.parameter(1)), \(dialect.parameter(2))) ON CONFLICT (session) DO NOTHING"
    }

    /// Forgets the sign-outs that ended before a time; parameter 1.
    package static func prune(_ dialect: SQLDialect) -> String {
        "DELETE FROM admin_sign_outs WHERE until_at < \(dialect.parameter(1))"
    }

    /// One row when the session is signed out; parameter 1 is the session.
    package static func select(_ dialect: SQLDialect) -> String {
        "SELECT 1 FROM admin_sign_outs WHERE session = \(dialect.parameter(1))"
    }
}
