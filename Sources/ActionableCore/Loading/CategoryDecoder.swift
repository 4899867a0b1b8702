/// Turns the root node of a category file into a ``NotificationCategory``, recording positions
/// and reporting every schema problem it meets.
struct CategoryDecoder {
    var reader: NodeReader

    static let topLevelKeys = [
        "version", "category", "description", "options", "hiddenPreviewsBodyPlaceholder", "summaryFormat",
        "intents", "payload", "actions", "contexts", "retired", "android",
    ]
    static let categoryAndroidKeys = ["actions"]
    static let actionKeys = [
        "id", "title", "activation", "destructive", "authenticationRequired", "icon", "input", "retired", "android",
    ]
    static let androidKeys = ["icon", "semanticAction"]
    static let inputKeys = ["button", "placeholder", "maxLength"]
    static let iconKeys = ["system", "template"]
    static let payloadFieldKeys = ["type", "required", "maxLength"]
    static let contextKeys = ["default", "minimal"]

    /// The contexts the file wrote out.
    var explicitContexts: ExplicitContexts = []

    init(file: String) { reader = NodeReader(file: file) }

    mutating func decode(_ root: YAMLNode) -> NotificationCategory? {
        guard let entries = reader.mapping(root, named: "a category file", allowed: Self.topLevelKeys) else {
            return nil
        }
        var id: CategoryID?
        var category = NotificationCategory(id: "")
        var explicitContexts: (default: [ActionID]?, minimal: [ActionID]?)?
        for entry in entries {
            let value = entry.value
            switch entry.key {
            case "version":
                if case .scalar(let scalar) = value, ScalarValue(scalar) == .int(1) { continue }
                reader.error("version must be 1, the only version of the format; found \(describeScalar(value))", at: value)
            case "category":
                id = reader.string(value, name: "category").map { CategoryID($0) }
            case "description":
                category.description = reader.string(value, name: "description")
            case "options":
                category.options = decodeOptions(value)
            case "hiddenPreviewsBodyPlaceholder":
                category.hiddenPreviewsBodyPlaceholder = reader.localized(
                    value, name: "hiddenPreviewsBodyPlaceholder")
            case "summaryFormat":
                category.summaryFormat = reader.localized(value, name: "summaryFormat")
            case "intents":
                category.intents = reader.stringList(value, name: "intents")?.map(\.0) ?? []
            case "payload":
                category.payload = decodePayload(value)
            case "actions":
                category.actions = decodeActions(value)
            case "contexts":
                explicitContexts = decodeContexts(value)
            case "retired":
                category.retired = reader.bool(value, name: "retired") ?? false
            case "android":
                if let entries = reader.mapping(value, named: "android", allowed: Self.categoryAndroidKeys), let list = entries.first {
                    category.androidActionIDs = reader.stringList(list.value, name: "android.actions")?.map { ActionID($0.0) }
                }
            default:
                break  // unreachable: mapping(_:) only returns allowed keys
            }
        }
        guard let id else {
            if !entries.contains(where: { $0.key == "category" }) {
                reader.error("missing required key \"category\" (the value the backend puts in aps.category)", at: root)
            }
            return nil
        }
        category.id = id
        let derived = Contexts.derived(from: category.actions.filter { !$0.retired }.map(\.id))
        if let explicitContexts {
            let defaultContext = explicitContexts.default ?? derived.default
            let minimal = explicitContexts.minimal ?? Array(defaultContext.prefix(Contexts.maximumMinimal))
            category.contexts = Contexts(default: defaultContext, minimal: minimal)
        } else {
            category.contexts = derived
        }
        return category
    }

    private func describeScalar(_ node: YAMLNode) -> String {
        if case .scalar(let scalar) = node { return "\"\(scalar.string)\"" }
        return NodeReader.describe(node)
    }

    private mutating func decodeOptions(_ node: YAMLNode) -> CategoryOptions {
        let names = CategoryOptions.named.map(\.name)
        var options: CategoryOptions = []
        for (name, element) in reader.stringList(node, name: "options") ?? [] {
            if let option = CategoryOptions(name: name) {
                options.insert(option)
            } else {
                let hint = Suggestion.didYouMean(name, in: names)
                reader.error("unknown category option \"\(name)\"\(hint); options are \(names.joined(separator: ", "))", at: element)
            }
        }
        return options
    }

    private mutating func decodePayload(_ node: YAMLNode) -> PayloadSchema {
        guard let entries = reader.mapping(node, named: "payload", allowed: nil) else {
            return PayloadSchema()
        }
        let types = PayloadType.allCases.map(\.rawValue)
        var fields: [PayloadField] = []
        for entry in entries {
            let name = "the type of payload key \"\(entry.key)\""
            if case .scalar = entry.value {
                if let type = reader.choice(entry.value, name: name, choices: types).flatMap(PayloadType.init) {
                    fields.append(PayloadField(key: entry.key, type: type))
                }
                continue
            }
            guard
                let keys = reader.mapping(
                    entry.value, named: "payload key \"\(entry.key)\"", allowed: Self.payloadFieldKeys)
            else { continue }
            var type: PayloadType?
            var required = false
            var maxLength: Int?
            var maxLengthNode: YAMLNode?
            for key in keys {
                switch key.key {
                case "type": type = reader.choice(key.value, name: name, choices: types).flatMap(PayloadType.init)
                case "required": required = reader.bool(key.value, name: "required") ?? false
                default:
                    maxLength = reader.integer(key.value, name: "maxLength", range: 1...Int(Int32.max))
                    maxLengthNode = key.value
                }
            }
            guard keys.contains(where: { $0.key == "type" }) else {
                reader.error("payload key \"\(entry.key)\" needs a type (\(types.joined(separator: ", ")))", at: entry.value)
                continue
            }
            guard let type else { continue }
            if let maxLengthNode, type != .string {
                reader.error("maxLength applies only to strings, but \"\(entry.key)\" is \(type.rawValue)", at: maxLengthNode)
                maxLength = nil
            }
            fields.append(PayloadField(key: entry.key, type: type, required: required, maxLength: maxLength))
        }
        return PayloadSchema(fields: fields)
    }

    private mutating func decodeActions(_ node: YAMLNode) -> [NotificationAction] {
        guard case .sequence(let sequence, _) = node else {
            reader.error("actions must be a sequence, found \(NodeReader.describe(node))", at: node)
            return []
        }
        var actions: [NotificationAction] = []
        for element in sequence {
            if let action = decodeAction(element) { actions.append(action) }
        }
        return actions
    }

    private mutating func decodeAction(_ node: YAMLNode) -> NotificationAction? {
        guard let entries = reader.mapping(node, named: "an action", allowed: Self.actionKeys) else {
            return nil
        }
        var action = NotificationAction(id: "", title: .plain(""))
        var id: ActionID?
        var title: LocalizedString?
        for entry in entries {
            let value = entry.value
            switch entry.key {
            case "id": id = reader.string(value, name: "id").map { ActionID($0) }
            case "title": title = reader.localized(value, name: "title")
            case "activation":
                let choices = NotificationAction.Activation.allCases.map(\.rawValue)
                if let activation = reader.choice(value, name: "activation", choices: choices) {
                    action.activation = NotificationAction.Activation(rawValue: activation) ?? .background
                }
            case "destructive": action.destructive = reader.bool(value, name: "destructive") ?? false
            case "authenticationRequired":
                action.authenticationRequired = reader.bool(value, name: "authenticationRequired") ?? false
            case "icon": action.icon = decodeIcon(value)
            case "retired": action.retired = reader.bool(value, name: "retired") ?? false
            case "android": action.android = decodeAndroid(value)
            default: action.input = decodeInput(value)
            }
        }
        for required in ["id", "title"] where !entries.contains(where: { $0.key == required }) {
            reader.error("an action needs \"\(required)\"", at: node)
        }
        guard let id else { return nil }
        action.id = id
        // An action whose title failed to decode is kept, so that contexts naming it do not
        // report it as unknown. Its title is an empty list of translations, which no file can
        // produce (an empty map is itself an error), so title rules see nothing to check.
        action.title = title ?? .localized([])
        return action
    }

    private mutating func decodeIcon(_ node: YAMLNode) -> ActionIcon? {
        guard let entries = reader.mapping(node, named: "icon", allowed: Self.iconKeys) else { return nil }
        guard entries.count == 1, let entry = entries.first else {
            reader.error("icon needs exactly one of system (an SF Symbol name) or template (an image name)", at: node)
            return nil
        }
        guard let name = reader.string(entry.value, name: "icon \(entry.key)") else { return nil }
        return entry.key == "system" ? .system(name) : .template(name)
    }

    private mutating func decodeAndroid(_ node: YAMLNode) -> AndroidActionOptions? {
        guard let entries = reader.mapping(node, named: "android", allowed: Self.androidKeys) else { return nil }
        var options = AndroidActionOptions()
        for entry in entries {
            if entry.key == "icon" {
                guard let name = reader.string(entry.value, name: "android icon") else { continue }
                guard AndroidActionOptions.isResourceName(name) else {
                    reader.error(
                        "android icon must name a drawable resource (lowercase letters, digits and _, starting with a letter, "
                            + "as ic_reply), found \"\(name)\"", at: entry.value)
                    continue
                }
                options.icon = name
            } else {
                let choices = AndroidActionOptions.SemanticAction.allCases.map(\.rawValue)
                if let text = reader.choice(entry.value, name: "android semanticAction", choices: choices) {
                    options.semanticAction = AndroidActionOptions.SemanticAction(rawValue: text)
                }
            }
        }
        return options
    }

    private mutating func decodeInput(_ node: YAMLNode) -> TextInput? {
        guard let entries = reader.mapping(node, named: "input", allowed: Self.inputKeys) else { return nil }
        var input = TextInput()
        for entry in entries {
            switch entry.key {
            case "button": input.button = reader.localized(entry.value, name: "input button")
            case "placeholder":
                input.placeholder = reader.localized(entry.value, name: "input placeholder")
            default:
                input.maxLength =
                    reader.integer(entry.value, name: "maxLength", range: 1...Int(Int32.max))
                    ?? TextInput.defaultMaxLength
            }
        }
        return input
    }

    private mutating func decodeContexts(_ node: YAMLNode) -> (default: [ActionID]?, minimal: [ActionID]?)? {
        guard let entries = reader.mapping(node, named: "contexts", allowed: Self.contextKeys) else {
            return nil
        }
        var result: (default: [ActionID]?, minimal: [ActionID]?) = (nil, nil)
        for entry in entries {
            let ids = reader.stringList(entry.value, name: "contexts.\(entry.key)")?
                .map { ActionID($0.0) }
            if entry.key == "default" {
                result.default = ids ?? []
                explicitContexts.insert(.default)
            } else {
                result.minimal = ids ?? []
                explicitContexts.insert(.minimal)
            }
        }
        return result
    }
}
