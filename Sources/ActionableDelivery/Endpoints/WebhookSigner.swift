import ActionableStore
import Crypto
public import Foundation

/// Signs forwarded responses as Standard Webhooks specifies: `webhook-signature` is
/// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part of a
/// `whsec_` secret.
public struct WebhookSigner: Sendable {
    /// The HMAC with its key already absorbed: each signature starts from a copy of it instead of
    /// hashing the key's padded blocks again (a hundredth of a delivered call's CPU, measured).
    private let keyed: HMAC<SHA256>

    /// A signer for `secret` (`whsec_` followed by base64; the prefix may be left out).
    public init(secret: String) throws(WebhookSecretError) {
        guard let bytes = Endpoint.secretKey(secret) else { throw WebhookSecretError() }
        keyed = HMAC<SHA256>(key: SymmetricKey(data: bytes))
    }

    /// The `webhook-signature` value for message `id`, sent at `timestamp` (Unix seconds),
    /// with `body` as the exact bytes sent.
    public func signature(id: String, timestamp: Int, body: some DataProtocol) -> String {
        var mac = keyed
        mac.update(data: Array("\(id).\(timestamp).".utf8))
        mac.update(data: body)
        return "v1," + Data(mac.finalize()).base64EncodedString()
    }
}

extension WebhookSigner {
    /// Whether a received webhook is authentic: one of the space-separated `signatures` (the
    /// `webhook-signature` header) matches, and `timestamp` is within `tolerance` of `now`
    /// (Standard Webhooks' replay protection). Compared in constant time.
    public func verify(
        id: String, timestamp: String, body: some DataProtocol, signatures: String, now: Date = Date(),
        tolerance: TimeInterval = 300
    ) -> Bool {
        guard let seconds = Int(timestamp), abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else {
            return false
        }
        let expected = Array(signature(id: id, timestamp: seconds, body: body).utf8)
        var matched = false
        for candidate in signatures.split(separator: " ") {
            let bytes = Array(candidate.utf8)
            guard bytes.count == expected.count else { continue }
            if zip(bytes, expected).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0 { matched = true }
        }
        return matched
    }
}

/// A forwarding secret that is not `whsec_` followed by at least 16 bytes of base64.
public struct WebhookSecretError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String {
        "--forward-secret must be whsec_ followed by base64 of at least 16 random bytes "
            + "(e.g. whsec_$(openssl rand -base64 32))"
    }
}
