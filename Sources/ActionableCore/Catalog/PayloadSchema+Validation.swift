/// Checking a notification's custom payload against its category's `payload` schema: shared by
/// the server (the payload an app sends back) and the payload builder (what a backend sends).
extension PayloadSchema {
    /// One way a payload does not match the schema.
    public struct Violation: Hashable, Sendable {
        /// What kind of mismatch it is.
        public enum Kind: Hashable, Sendable {
            /// A required key is absent.
            case missing
            /// A key the schema does not declare.
            case unknown(suggestion: String?)
            /// A value of another JSON type.
            case wrongType(expected: PayloadType, found: String)
            /// A string longer than `maxLength` characters.
            case tooLong(maximum: Int, length: Int)
            /// `aps` or `actionToken`, which belong to APNs and Actionable.
            case reserved
        }

        /// The key at fault.
        public let key: String
        /// What is wrong with it.
        public let kind: Kind

        /// The JSON pointer of the key inside the payload object (`/inviteId`).
        public var pointer: String { "/" + SourceMap.escape(key) }

        /// A message naming the key and the fix.
        public var message: String {
            switch kind {
            case .missing: return "payload key \"\(key)\" is required by the category's payload schema"
            case .unknown(let suggestion):
                let hint = suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
                return "payload key \"\(key)\" is not declared in the category's payload schema\(hint)"
            case .wrongType(let expected, let found):
                return "payload key \"\(key)\" must be \(expected.article) \(expected.rawValue), found \(found)"
            case .tooLong(let maximum, let length):
                return "payload key \"\(key)\" is \(length) characters long; its maxLength is \(maximum)"
            case .reserved:
                return "payload key \"\(key)\" is reserved (aps belongs to APNs, actionToken to Actionable)"
            }
        }
    }

    /// Every violation of `values` (key, value pairs in any order), ordered by key.
    public func violations(of values: [(String, JSONValue)]) -> [Violation] {
        var found: [Violation] = []
        for field in fields where field.required && !values.contains(where: { $0.0 == field.key }) {
            found.append(Violation(key: field.key, kind: .missing))
        }
        for (key, value) in values {
            guard !PayloadSchema.reservedKeys.contains(key) else {
                found.append(Violation(key: key, kind: .reserved))
                continue
            }
            guard let field = self[key] else {
                found.append(Violation(key: key, kind: .unknown(suggestion: Suggestion.closest(to: key, in: fields.map(\.key)))))
                continue
            }
            guard field.type.accepts(value) else {
                found.append(Violation(key: key, kind: .wrongType(expected: field.type, found: value.typeName)))
                continue
            }
            if let maximum = field.maxLength, case .string(let text) = value, text.count > maximum {
                found.append(Violation(key: key, kind: .tooLong(maximum: maximum, length: text.count)))
            }
        }
        return found.sorted { $0.key < $1.key }
    }
}

extension PayloadType {
    /// Whether `value` has this JSON type. An integer is also a number; a number with no
    /// fractional part (`3.0`) is also an integer, as JSON does not tell them apart.
    public func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.object, .object), (.array, .array): return true
        case (.integer, .int), (.number, .int), (.number, .double): return true
        case (.integer, .double(let number)): return number.rounded() == number && abs(number) < 9.0e15
        default: return false
        }
    }

    var article: String { self == .integer || self == .object || self == .array ? "an" : "a" }
}
