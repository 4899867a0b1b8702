/// The normalized catalog as JSON: every default filled in, keys in a fixed order, categories
/// sorted by identifier. This is the form a non-Swift backend or an app consumes, and what the
/// server serves at `GET /v1/categories`.
extension Catalog {
    /// The catalog as a ``JSONValue`` (`{"version": 1, "categories": [...]}`).
    public var jsonValue: JSONValue {
        .object([
            ("version", .int(1)),
            ("categories", .array(categories.map(\.jsonValue))),
        ])
    }
}

extension NotificationCategory {
    /// The category in the catalog's JSON form.
    public var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("category", .string(id.rawValue))]
        if let description { pairs.append(("description", .string(description))) }
        pairs.append(("options", .array(options.names.map(JSONValue.string))))
        if let hiddenPreviewsBodyPlaceholder {
            pairs.append(("hiddenPreviewsBodyPlaceholder", hiddenPreviewsBodyPlaceholder.jsonValue))
        }
        if let summaryFormat { pairs.append(("summaryFormat", summaryFormat.jsonValue)) }
        pairs.append(("intents", .array(intents.map(JSONValue.string))))
        pairs.append(("payload", .object(payload.fields.map { ($0.key, $0.jsonValue) })))
        pairs.append(("actions", .array(actions.map(\.jsonValue))))
        pairs.append(
            (
                "contexts",
                .object([
                    ("default", .array(contexts.default.map { .string($0.rawValue) })),
                    ("minimal", .array(contexts.minimal.map { .string($0.rawValue) })),
                ])
            ))
        if let androidActionIDs {
            pairs.append(("android", .object([("actions", .array(androidActionIDs.map { .string($0.rawValue) }))])))
        }
        pairs.append(("retired", .bool(retired)))
        return .object(pairs)
    }
}

extension NotificationAction {
    /// The action in the catalog's JSON form.
    public var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(id.rawValue)),
            ("title", title.jsonValue),
            ("activation", .string(activation.rawValue)),
            ("destructive", .bool(destructive)),
            ("authenticationRequired", .bool(authenticationRequired)),
        ]
        switch icon {
        case .system(let name): pairs.append(("icon", .object([("system", .string(name))])))
        case .template(let name): pairs.append(("icon", .object([("template", .string(name))])))
        case nil: break
        }
        if let input {
            var inputPairs: [(String, JSONValue)] = []
            if let button = input.button { inputPairs.append(("button", button.jsonValue)) }
            if let placeholder = input.placeholder { inputPairs.append(("placeholder", placeholder.jsonValue)) }
            inputPairs.append(("maxLength", .int(input.maxLength)))
            pairs.append(("input", .object(inputPairs)))
        }
        if let android {
            var androidPairs: [(String, JSONValue)] = []
            if let icon = android.icon { androidPairs.append(("icon", .string(icon))) }
            if let semantic = android.semanticAction { androidPairs.append(("semanticAction", .string(semantic.rawValue))) }
            pairs.append(("android", .object(androidPairs)))
        }
        pairs.append(("retired", .bool(retired)))
        return .object(pairs)
    }
}

extension PayloadField {
    /// The field in the catalog's JSON form (always the long form).
    public var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("type", .string(type.rawValue)), ("required", .bool(required))]
        if let maxLength { pairs.append(("maxLength", .int(maxLength))) }
        return .object(pairs)
    }
}

extension LocalizedString {
    /// A plain string, or an object locale -> text in file order.
    public var jsonValue: JSONValue {
        switch self {
        case .plain(let text): return .string(text)
        case .localized(let entries): return .object(entries.map { ($0.locale, .string($0.value)) })
        }
    }
}
