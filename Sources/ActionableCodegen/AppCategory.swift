import ActionableCore

/// One category of the app target: its identifiers, its `UNNotificationCategory` and its payload.
struct AppCategory {
    let category: NotificationCategory
    let access: String

    func write(into writer: inout SwiftWriter) {
        let id = category.id
        writer.line("/// \(category.docSummary)")
        writer.block("\(access) enum \(SwiftName.type(id.rawValue))") { writer in
            writer.line("/// The value of `aps.category`.")
            writer.line("\(access) static let identifier = \(id.rawValue.swiftLiteral)")
            writer.line()
            writer.line("/// The category's action identifiers (`response.actionIdentifier`).")
            writer.block("\(access) enum Action") { writer in
                for action in category.actions {
                    writer.line("\(access) static let \(SwiftName.member(action.id.rawValue)) = \(action.id.rawValue.swiftLiteral)")
                }
            }
            writer.line()
            writer.line("/// The keys of the category's payload schema.")
            let keys = category.payload.fields.map(\.key.swiftLiteral).joined(separator: ", ")
            writer.line("\(access) static let payloadKeys: Set<String> = [\(keys)]")
            writer.line()
            writeCategory(into: &writer)
            writer.line()
            writeActions(into: &writer)
            writer.line()
            AppPayloadStruct.write(category.payload, access: access, into: &writer)
        }
    }

    /// The `default` context in its order, then the other declared actions.
    var orderedActions: [NotificationAction] {
        let first = category.contexts.default.compactMap { category.action($0) }
        return first + category.actions.filter { action in !category.contexts.default.contains(action.id) }
    }

    private func writeCategory(into writer: inout SwiftWriter) {
        let id = category.id
        let optionNames = CategoryOptions.named.filter { category.options.contains($0.option) && $0.option != .allowAnnouncement }
            .map { "." + $0.name }
        writer.line("/// The category to register, with the iOS 12 initializer.")
        writer.block("\(access) static var category: UNNotificationCategory") { writer in
            let declaration = category.options.contains(.allowAnnouncement) ? "var" : "let"
            writer.line("\(declaration) options: UNNotificationCategoryOptions = [\(optionNames.joined(separator: ", "))]")
            if category.options.contains(.allowAnnouncement) {
                writer.line("if #available(iOS 13.0, *) { options.insert(.allowAnnouncement) }")
            }
            writer.line("return UNNotificationCategory(")
            writer.line("    identifier: identifier, actions: Actions._all,")
            writer.line("    intentIdentifiers: [\(category.intents.map(\.swiftLiteral).joined(separator: ", "))],")
            writer.line(
                "    hiddenPreviewsBodyPlaceholder: \(localized(category.hiddenPreviewsBodyPlaceholder, key: LocalizationKeys.hiddenPreviewsBodyPlaceholder(id), comment: LocalizationComments.hiddenPreviewsBodyPlaceholder(id))),"
            )
            writer.line(
                "    categorySummaryFormat: \(localized(category.summaryFormat, key: LocalizationKeys.summaryFormat(id), comment: LocalizationComments.summaryFormat(id))),"
            )
            writer.line("    options: options)")
        }
    }

    private func writeActions(into writer: inout SwiftWriter) {
        writer.line("/// The actions, built for the running iOS version.")
        writer.block("private enum Actions") { writer in
            writer.line(
                "static var _all: [UNNotificationAction] { [\(orderedActions.map { SwiftName.member($0.id.rawValue) }.joined(separator: ", "))] }")
            for action in orderedActions {
                writer.line()
                writeAction(action, into: &writer)
            }
        }
    }

    private func writeAction(_ action: NotificationAction, into writer: inout SwiftWriter) {
        let id = category.id
        let name = SwiftName.member(action.id.rawValue)
        let options = ActionOptionNames.swift(action.options)
        writer.block("static var \(name): UNNotificationAction") { writer in
            writer.line(
                "let title = \(localizedRequired(action.title, key: LocalizationKeys.title(id, action.id), comment: LocalizationComments.title(id, action.id)))"
            )
            var arguments = "identifier: Action.\(name), title: title, options: [\(options)]"
            var type = "UNNotificationAction"
            var inputArguments = ""
            if let input = action.input {
                type = "UNTextInputNotificationAction"
                let button = localizedRequired(
                    input.buttonOrDefault, key: LocalizationKeys.button(id, action.id),
                    comment: LocalizationComments.button(id, action.id))
                let placeholder =
                    input.placeholder.map {
                        localizedRequired(
                            $0, key: LocalizationKeys.placeholder(id, action.id),
                            comment: LocalizationComments.placeholder(id, action.id))
                    } ?? "\"\""
                writer.line("let button = \(button)")
                writer.line("let placeholder = \(placeholder)")
                inputArguments = ", textInputButtonTitle: button, textInputPlaceholder: placeholder"
            }
            if let icon = action.icon {
                let iconExpression: String
                switch icon {
                case .system(let symbol): iconExpression = "UNNotificationActionIcon(systemImageName: \(symbol.swiftLiteral))"
                case .template(let image): iconExpression = "UNNotificationActionIcon(templateImageName: \(image.swiftLiteral))"
                }
                writer.block("if #available(iOS 15.0, *)") { writer in
                    writer.line("return \(type)(\(arguments), icon: \(iconExpression)\(inputArguments))")
                }
            }
            arguments += inputArguments
            writer.line("return \(type)(\(arguments))")
        }
    }

    /// `NSLocalizedString` of `text` under `key`, or `nil` when the file gives none.
    private func localized(_ text: LocalizedString?, key: String, comment: String) -> String {
        guard let text else { return "nil" }
        return localizedRequired(text, key: key, comment: comment)
    }

    private func localizedRequired(_ text: LocalizedString, key: String, comment: String) -> String {
        "NSLocalizedString(\(key.swiftLiteral), tableName: nil, bundle: .main, value: \(text.developmentValue.swiftLiteral), comment: \(comment.swiftLiteral))"
    }
}

/// `UNNotificationActionOptions` members for an action's options, in Apple's order.
enum ActionOptionNames {
    static func swift(_ options: ActionOptions) -> String {
        var names: [String] = []
        if options.contains(.authenticationRequired) { names.append(".authenticationRequired") }
        if options.contains(.destructive) { names.append(".destructive") }
        if options.contains(.foreground) { names.append(".foreground") }
        return names.joined(separator: ", ")
    }
}
