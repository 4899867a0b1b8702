/// The canonical form of a notification's custom payload, which an action token's `pld` claim
/// binds (the SHA-256 of these bytes): the backend computes it from what it sends, the server
/// from what the app sends back, and the two agree whatever JSON round trip lay between.
extension PayloadSchema {
    /// The category's declared keys of `values` (others, `aps` and `actionToken` among them,
    /// are left out), typed by their declared types, as RFC 8785 canonical JSON.
    ///
    /// Typing by the schema is what makes an app's re-encoding harmless: an `integer` key is
    /// written as its exact integer, whether it arrived as `2` or `2.0` (`JSONSerialization`
    /// gives either); a `number` as ECMAScript prints the double. Objects and arrays are
    /// canonicalized as RFC 8785 says. An integer beyond ±2^53 keeps its exact digits where
    /// RFC 8785 would round it to a double, so that two large ids can never share a digest.
    public func canonicalJSON(of values: [(String, JSONValue)]) -> String {
        var members: [(field: PayloadField, value: JSONValue)] = []
        members.reserveCapacity(fields.count)
        for field in fields {
            guard let value = values.first(where: { $0.0 == field.key })?.1 else { continue }
            members.append((field, value))
        }
        members.sort { $0.field.key.utf16.lexicographicallyPrecedes($1.field.key.utf16) }
        var output = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { output += "," }
            JSONValue.writeString(member.field.key, to: &output)
            output += ":"
            Self.write(member.value, as: member.field.type, to: &output)
        }
        output += "}"
        return output
    }

    /// The same, for a payload decoded as a dictionary.
    public func canonicalJSON(of values: [String: JSONValue]) -> String {
        canonicalJSON(of: values.map { ($0.key, $0.value) })
    }

    private static func write(_ value: JSONValue, as type: PayloadType, to output: inout String) {
        switch (type, value) {
        case (.integer, .int(let number)): output += String(number)
        case (.integer, .double(let number)) where number.rounded() == number && number.magnitude < 9.2e18:
            output += String(Int(number))
        default: CanonicalJSON.write(value, to: &output)
        }
    }
}
