public import ActionableCore

/// Why a payload cannot be built: APNs would refuse it, or it does not fit its category.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added; switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unknownCategory, retiredCategory, payloadMismatch, tooLarge, invalidAPS, customPayloadNotAnObject, notificationOfAnotherUser,
                noTokens, invalidFCM
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The category is not in the catalog.
        public static let unknownCategory = Code(.unknownCategory)
        /// The category is retired: apps no longer register it, so a new notification would show no buttons.
        public static let retiredCategory = Code(.retiredCategory)
        /// The custom keys do not match the category's payload schema.
        public static let payloadMismatch = Code(.payloadMismatch)
        /// The encoded payload is over the push type's limit.
        public static let tooLarge = Code(.tooLarge)
        /// An `aps` value APNs would refuse (a negative badge, a relevance score outside 0…1, …).
        public static let invalidAPS = Code(.invalidAPS)
        /// The custom payload did not encode as a JSON object.
        public static let customPayloadNotAnObject = Code(.customPayloadNotAnObject)
        /// The badge ledger holds the notification id for another user.
        public static let notificationOfAnotherUser = Code(.notificationOfAnotherUser)
        /// An action token was asked for, but the builder was made without `ActionTokens`.
        public static let noTokens = Code(.noTokens)
        /// An FCM rule the message breaks: a payload key FCM or the message reserves, a time to
        /// live past four weeks.
        public static let invalidFCM = Code(.invalidFCM)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// Every problem, each naming its key and the fix.
    public let messages: [String]

    public var description: String { messages.joined(separator: "\n") }

    /// Where each of ``messages`` points inside the custom payload, as a JSON Pointer (`/seats`),
    /// or `""` for the payload as a whole; as many as ``messages``.
    public let pointers: [String]

    /// An error of `code`, each message naming its key and the fix (for helpers built on the
    /// builder, as the service's badge-recording one); each message points at the whole payload.
    public init(_ code: Code, _ messages: [String]) {
        self.code = code
        self.messages = messages
        self.pointers = messages.map { _ in "" }
    }

    /// An error of `code` for the payload's key `violations`, each pointing at its key.
    public init(_ code: Code, violations: [PayloadSchema.Violation]) {
        self.code = code
        self.messages = violations.map(\.message)
        self.pointers = violations.map(\.pointer)
    }
}
