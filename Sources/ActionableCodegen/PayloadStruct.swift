import ActionableCore

/// The `Payload` struct of a category: one property per payload key (required keys are not
/// optional), with `CodingKeys` that keep the keys as written.
enum PayloadStruct {
    static func write(_ schema: PayloadSchema, access: String, protocols: String, into writer: inout SwiftWriter) {
        writer.line("/// The custom keys of the category's notifications.")
        writer.block("\(access) struct Payload: \(protocols)") { writer in
            for field in schema.fields {
                writer.line("\(access) var \(SwiftName.member(field.key)): \(swiftType(field))")
            }
            if !schema.fields.isEmpty { writer.line() }
            let parameters = schema.fields.map { field in
                "\(SwiftName.member(field.key)): \(swiftType(field))\(field.required ? "" : " = nil")"
            }
            writer.block("\(access) init(\(parameters.joined(separator: ", ")))") { writer in
                for field in schema.fields {
                    let name = SwiftName.member(field.key)
                    writer.line("self.\(name) = \(name)")
                }
            }
            writeCodingKeys(schema, into: &writer)
        }
    }

    /// `CodingKeys` that keep each key as written (nothing when there are no keys).
    static func writeCodingKeys(_ schema: PayloadSchema, into writer: inout SwiftWriter) {
        guard !schema.fields.isEmpty else { return }
        writer.line()
        writer.block("enum CodingKeys: String, CodingKey") { writer in
            for field in schema.fields {
                writer.line("case \(SwiftName.member(field.key)) = \(field.key.swiftLiteral)")
            }
        }
    }

    /// string → String, integer → Int, number → Double, boolean → Bool, object and array →
    /// maps and lists of `json` (`JSONValue` on the server); optional unless required.
    static func swiftType(_ field: PayloadField, json: String = "JSONValue") -> String {
        let base: String
        switch field.type {
        case .string: base = "String"
        case .integer: base = "Int"
        case .number: base = "Double"
        case .boolean: base = "Bool"
        case .object: base = "[String: \(json)]"
        case .array: base = "[\(json)]"
        }
        return field.required ? base : base + "?"
    }
}
