public import ActionableCore
import Crypto
import Foundation

/// The `pld` claim of an action token: the base64url SHA-256 of a notification's custom
/// payload in canonical JSON (`PayloadSchema.canonicalJSON(of:)`, RFC 8785
/// typed by the category's payload schema). It binds the payload the backend sent to the token,
/// so the server can refuse a tap whose payload was edited on the phone.
///
/// ```swift
/// let digest = PayloadDigest(payload: [("inviteId", .string("inv-42"))], schema: invite.payload)
/// let token = try await tokens.mint(user: "alice", notificationID: id, category: "invite", payload: digest)
/// ```
///
/// `PayloadBuilder` and `actionable payload` compute it for you.
public struct PayloadDigest: Hashable, Sendable, CustomStringConvertible {
    /// The digest as it appears in the token: unpadded base64url of 32 bytes.
    public let value: String

    /// The digest of `payload` as `schema` types it (keys it does not declare are left out).
    public init(payload: [(String, JSONValue)], schema: PayloadSchema) {
        self.init(canonicalJSON: schema.canonicalJSON(of: payload))
    }

    /// The digest of `payload` (a decoded JSON object) as `schema` types it.
    public init(payload: [String: JSONValue], schema: PayloadSchema) {
        self.init(canonicalJSON: schema.canonicalJSON(of: payload))
    }

    /// The digest of canonical JSON text.
    public init(canonicalJSON text: String) {
        value = Base64URL.encode(Data(SHA256.hash(data: Data(text.utf8))))
    }

    init(claim: String) { value = claim }

    public var description: String { value }

    /// Whether `other` is the same digest, compared without an early exit.
    func matches(_ other: PayloadDigest) -> Bool {
        let left = Array(value.utf8)
        let right = Array(other.value.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
