import ActionableCore

/// `actionable generate swift --target server`: for each category a type with its
/// `CategoryID`, one `ActionID` per action and a `Codable` `Payload`, so that a backend using
/// `RouterBuilder` and `PayloadBuilder` cannot misspell a category, an action or a payload key.
///
/// ```swift
/// builder.on(NotificationCategories.Invite.identifier, NotificationCategories.Invite.Action.accept,
///            payload: NotificationCategories.Invite.Payload.self) { response, invite, context in … }
/// ```
public struct ServerGenerator: Sendable {
    /// The options of the output.
    public var options: GenerationOptions

    /// A generator with `options`.
    public init(options: GenerationOptions = GenerationOptions()) { self.options = options }

    /// The Swift source for `categories`, in category-id order whatever their order here.
    public func generate(_ categories: [SourceCategory]) throws(GenerationError) -> String {
        let sorted = try NameCollisions.checkedInOrder(categories)
        let access = options.access.rawValue
        var writer = SwiftWriter()
        GeneratedHeader.write(to: &writer, target: "server", sources: sorted.map(\.path))
        writer.line(options.access == .public ? "public import ActionableCore" : "import ActionableCore")
        writer.line()
        writer.line("/// The notification categories of the catalog, as constants and payload types.")
        writer.block("\(access) enum \(options.name)") { writer in
            for (index, source) in sorted.enumerated() {
                if index > 0 { writer.line() }
                category(source.category, access: access, into: &writer)
            }
        }
        return writer.text
    }

    private func category(_ category: NotificationCategory, access: String, into writer: inout SwiftWriter) {
        writer.line("/// \(category.docSummary)")
        writer.block("\(access) enum \(SwiftName.type(category.id.rawValue))") { writer in
            writer.line("/// The value of `aps.category`.")
            writer.line("\(access) static let identifier: CategoryID = \(category.id.rawValue.swiftLiteral)")
            writer.line()
            writer.line("/// The category's action identifiers.")
            writer.block("\(access) enum Action") { writer in
                for action in category.actions {
                    if action.retired {
                        writer.line("/// Retired: apps no longer show it; taps from older app versions still arrive.")
                    }
                    writer.line(
                        "\(access) static let \(SwiftName.member(action.id.rawValue)): ActionID = \(action.id.rawValue.swiftLiteral)")
                }
            }
            writer.line()
            PayloadStruct.write(category.payload, access: access, protocols: "Codable, Hashable, Sendable", into: &writer)
        }
    }
}
