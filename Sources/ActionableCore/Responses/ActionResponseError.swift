/// Why an action response does not fit the catalog (HTTP 422). Each case names the field at
/// fault as a JSON pointer into the request body, and says how to fix it.
public struct ActionResponseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of mismatch. New kinds may be added; switch with a default.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Hashable, Sendable {
            case unknownCategory, unknownAction, dismissNotEnabled, textNotAllowed, textTooLong, payloadMismatch
        }

        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// `category` names no category of the catalog.
        public static let unknownCategory = Code(.unknownCategory)
        /// `action` is neither declared by the category nor one of Apple's identifiers.
        public static let unknownAction = Code(.unknownAction)
        /// The dismiss identifier for a category without `customDismissAction`.
        public static let dismissNotEnabled = Code(.dismissNotEnabled)
        /// `userText` for an action that is not a text-input action.
        public static let textNotAllowed = Code(.textNotAllowed)
        /// `userText` longer than the action's `maxLength`.
        public static let textTooLong = Code(.textTooLong)
        /// `payload` does not match the category's payload schema.
        public static let payloadMismatch = Code(.payloadMismatch)

        public var description: String { base.rawValue }
    }

    /// The kind of mismatch.
    public let code: Code
    /// The fields at fault: JSON pointers into the request body with a message each.
    public let errors: [(pointer: String, detail: String)]

    /// A summary naming the first field and its fix.
    public var description: String { errors.first?.detail ?? code.description }

    /// The HTTP status for every case.
    public var status: Int { 422 }

    init(_ code: Code, pointer: String, _ detail: String) {
        self.code = code
        self.errors = [(pointer, detail)]
    }

    init(_ code: Code, errors: [(pointer: String, detail: String)]) {
        self.code = code
        self.errors = errors
    }

    public static func == (lhs: ActionResponseError, rhs: ActionResponseError) -> Bool {
        lhs.code == rhs.code && lhs.errors.map(\.pointer) == rhs.errors.map(\.pointer)
            && lhs.errors.map(\.detail) == rhs.errors.map(\.detail)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        for error in errors {
            hasher.combine(error.pointer)
            hasher.combine(error.detail)
        }
    }
}
