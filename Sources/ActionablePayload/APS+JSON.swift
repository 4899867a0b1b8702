import ActionableCore

extension APS {
    /// The `aps` object with `category`, keys in APNs' spelling, in a fixed order.
    func jsonValue(category: CategoryID) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        switch alert {
        case .body(let text): pairs.append(("alert", .string(text)))
        case .fields(let fields): pairs.append(("alert", fields.jsonValue))
        case nil: break
        }
        if let badge { pairs.append(("badge", .int(badge))) }
        switch sound {
        case .named(let name): pairs.append(("sound", .string(name)))
        case .critical(let name, let volume):
            pairs.append(("sound", .object([("critical", .int(1)), ("name", .string(name)), ("volume", .double(volume))])))
        case nil: break
        }
        if let threadID { pairs.append(("thread-id", .string(threadID))) }
        pairs.append(("category", .string(category.rawValue)))
        if contentAvailable { pairs.append(("content-available", .int(1))) }
        if mutableContent { pairs.append(("mutable-content", .int(1))) }
        if let targetContentID { pairs.append(("target-content-id", .string(targetContentID))) }
        if let interruptionLevel { pairs.append(("interruption-level", .string(interruptionLevel.rawValue))) }
        if let relevanceScore { pairs.append(("relevance-score", .double(relevanceScore))) }
        if let filterCriteria { pairs.append(("filter-criteria", .string(filterCriteria))) }
        return .object(pairs)
    }
}

extension APS.AlertFields {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = []
        func add(_ key: String, _ value: String?) { if let value { pairs.append((key, .string(value))) } }
        func add(_ key: String, _ values: [String]?) { if let values { pairs.append((key, .array(values.map(JSONValue.string)))) } }
        add("title", title)
        add("subtitle", subtitle)
        add("body", body)
        add("title-loc-key", titleLocKey)
        add("title-loc-args", titleLocArgs)
        add("subtitle-loc-key", subtitleLocKey)
        add("subtitle-loc-args", subtitleLocArgs)
        add("loc-key", locKey)
        add("loc-args", locArgs)
        add("launch-image", launchImage)
        return .object(pairs)
    }
}
