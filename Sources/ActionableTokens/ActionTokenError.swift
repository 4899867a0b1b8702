/// Why an action token was refused. Each case maps onto one status of the HTTP API (docs/http-api.md): 401 when the
/// token itself is not acceptable, 403 when it is valid but does not cover the request.
public struct ActionTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case missing, malformed, badSignature, unknownKey, expired, notYetValid, wrongAudience
            case wrongCategory, actionNotAllowed, wrongNotification, wrongUser, payloadMismatch
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// No token where one is required (401).
        public static let missing = Code(.missing)
        /// Not a compact JWS with the expected header and claims (401).
        public static let malformed = Code(.malformed)
        /// The signature does not verify (401).
        public static let badSignature = Code(.badSignature)
        /// The `kid` names no configured key (401).
        public static let unknownKey = Code(.unknownKey)
        /// Past `exp` plus the leeway (401).
        public static let expired = Code(.expired)
        /// Issued in the future beyond the leeway (401).
        public static let notYetValid = Code(.notYetValid)
        /// An app JWT whose `aud` does not name this server (401).
        public static let wrongAudience = Code(.wrongAudience)
        /// Valid, but for another category (403).
        public static let wrongCategory = Code(.wrongCategory)
        /// Valid, but `act` does not list the action (403).
        public static let actionNotAllowed = Code(.actionNotAllowed)
        /// Valid, but for another notification than `notificationId` (403).
        public static let wrongNotification = Code(.wrongNotification)
        /// Valid, but for another user than the authenticated one (403).
        public static let wrongUser = Code(.wrongUser)
        /// Valid, but the payload is not the one it was minted for (422).
        public static let payloadMismatch = Code(.payloadMismatch)

        public var description: String { base.rawValue }

        /// 401, 403 or 422.
        public var status: Int {
            switch base {
            case .missing, .malformed, .badSignature, .unknownKey, .expired, .notYetValid, .wrongAudience: return 401
            case .wrongCategory, .actionNotAllowed, .wrongNotification, .wrongUser: return 403
            case .payloadMismatch: return 422
            }
        }
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong, without any secret.
    public let description: String

    /// The HTTP status the server answers with (docs/http-api.md).
    public var status: Int { code.status }

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
