import ActionableCore

/// Two identifiers that become one Swift name in the same scope make the generated code
/// ambiguous; this finds them before anything is written, naming both and their files.
enum NameCollisions {
    /// `sources` in category-id order (so the output never depends on the files' order), once
    /// checked.
    static func checkedInOrder(_ sources: [SourceCategory]) throws(GenerationError) -> [SourceCategory] {
        let sorted = sources.sorted { $0.category.id < $1.category.id }
        try check(sorted)
        return sorted
    }

    static func check(_ sources: [SourceCategory]) throws(GenerationError) {
        var types: [String: SourceCategory] = [:]
        for source in sources {
            let name = SwiftName.type(source.category.id.rawValue)
            if let other = types[name] {
                throw GenerationError(
                    """
                    categories "\(other.category.id)" (\(other.path)) and "\(source.category.id)" (\(source.path)) \
                    both become the Swift type \(name); rename one of them
                    """)
            }
            types[name] = source
            try unique(source.category.actions.map(\.id.rawValue), what: "actions", in: source)
            try unique(source.category.payload.fields.map(\.key), what: "payload keys", in: source)
        }
    }

    private static func unique(_ identifiers: [String], what: String, in source: SourceCategory) throws(GenerationError) {
        var seen: [String: String] = [:]
        for identifier in identifiers {
            let name = SwiftName.member(identifier)
            if let other = seen[name], other != identifier {
                throw GenerationError(
                    """
                    \(source.path): \(what) "\(other)" and "\(identifier)" of category "\(source.category.id)" both \
                    become the Swift name \(name); rename one of them
                    """)
            }
            seen[name] = identifier
        }
    }
}
