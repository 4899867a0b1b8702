import ActionableCore

/// The app's `Payload`: decoded from a notification's `userInfo` (its custom keys; `aps` and
/// `actionToken` left out), required keys non-optional.
enum AppPayloadStruct {
    static func write(_ schema: PayloadSchema, access: String, into writer: inout SwiftWriter) {
        writer.line("/// The custom keys of the category's notifications, from `userInfo`.")
        writer.block("\(access) struct Payload: Decodable, Hashable") { writer in
            for field in schema.fields {
                writer.line("\(access) var \(SwiftName.member(field.key)): \(swiftType(field))")
            }
            if !schema.fields.isEmpty { writer.line() }
            writer.line("/// Decodes the custom keys of `userInfo`; throws `DecodingError` naming a missing or mistyped key.")
            writer.block("\(access) init(userInfo: [AnyHashable: Any]) throws") { writer in
                writer.line("var custom: [String: Any] = [:]")
                writer.line("for case let (key as String, value) in userInfo where key != \"aps\" && key != \"actionToken\" { custom[key] = value }")
                writer.line("let data = try JSONSerialization.data(withJSONObject: custom)")
                writer.line("self = try JSONDecoder().decode(Payload.self, from: data)")
            }
            PayloadStruct.writeCodingKeys(schema, into: &writer)
        }
    }

    static func swiftType(_ field: PayloadField) -> String { PayloadStruct.swiftType(field, json: "JSON") }
}

/// A JSON value for `object` and `array` payload keys (the app file imports nothing of ours).
enum AppJSONType {
    static func write(access: String, into writer: inout SwiftWriter) {
        writer.line("/// A JSON value, for payload keys of type object or array.")
        writer.block("\(access) enum JSON: Decodable, Hashable") { writer in
            writer.line("case string(String)")
            writer.line("case number(Double)")
            writer.line("case bool(Bool)")
            writer.line("case array([JSON])")
            writer.line("case object([String: JSON])")
            writer.line("case null")
            writer.line()
            writer.block("\(access) init(from decoder: any Decoder) throws") { writer in
                writer.line("let container = try decoder.singleValueContainer()")
                writer.block("if container.decodeNil()") { writer in writer.line("self = .null") }
                writer.line("else if let value = try? container.decode(Bool.self) { self = .bool(value) }")
                writer.line("else if let value = try? container.decode(Double.self) { self = .number(value) }")
                writer.line("else if let value = try? container.decode(String.self) { self = .string(value) }")
                writer.line("else if let value = try? container.decode([JSON].self) { self = .array(value) }")
                writer.line("else { self = .object(try container.decode([String: JSON].self)) }")
            }
        }
    }
}
