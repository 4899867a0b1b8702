public import ActionableCore
import Foundation

extension PayloadSchema {
    /// A `KEY=VALUE` assignment (as `actionable payload --set` takes it), typed by this schema:
    /// `seats=3` is the integer 3 when `seats` is an `integer`, `true`/`false` are booleans,
    /// `object` and `array` values are JSON, and a `string` is the text as written.
    ///
    /// Throws ``PayloadError`` (``PayloadError/Code-swift.struct/payloadMismatch``) naming the
    /// key and the fix: no `=`, an undeclared key (with "did you mean"), or a value of another type.
    public func value(assigning text: String) throws(PayloadError) -> (key: String, value: JSONValue) {
        guard let equals = text.firstIndex(of: "=") else {
            throw PayloadError(.payloadMismatch, ["--set takes KEY=VALUE, found \"\(text)\""])
        }
        let key = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        guard let field = self[key] else {
            let hint = Suggestion.didYouMean(key, in: fields.map(\.key))
            let known = fields.isEmpty ? "it declares none" : "declared: " + fields.map(\.key).joined(separator: ", ")
            throw PayloadError(.payloadMismatch, ["payload key \"\(key)\" is not declared by the category\(hint); \(known)"])
        }
        let value: JSONValue?
        switch field.type {
        case .string: value = .string(raw)
        case .integer: value = Int(raw).map(JSONValue.int)
        case .number: value = Int(raw).map(JSONValue.int) ?? Double(raw).map(JSONValue.double)
        case .boolean: value = raw == "true" ? .bool(true) : raw == "false" ? .bool(false) : nil
        case .object, .array:
            let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(raw.utf8))
            value = parsed.flatMap { field.type.accepts($0) ? $0 : nil }
        }
        guard let value else {
            throw PayloadError(
                .payloadMismatch, ["payload key \"\(key)\" is \(field.type.rawValue) in the category's schema; \"\(raw)\" is not"])
        }
        return (key, value)
    }
}
