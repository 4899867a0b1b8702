import ActionableCore

/// The changes between two declarations of one category.
struct CategoryComparison {
    let old: Declared
    let new: Declared

    var id: CategoryID { new.category.id }

    func compare(into report: inout DiffReport) {
        if !old.category.retired && new.category.retired {
            report.add(
                "category_retired", new.location("/retired", key: true),
                "category \"\(id)\" was retired: apps stop registering it from their next version, and taps from "
                    + "installed versions are still accepted")
        }
        if old.category.retired && !new.category.retired {
            report.add(
                "unretired", new.location("/category"),
                "category \"\(id)\" is no longer retired: apps register it again from their next version")
        }
        if old.category.options.contains(.customDismissAction) && !new.category.options.contains(.customDismissAction) {
            let location = new.file.sourceMap.contains("/options") ? new.location("/options") : new.location("/category", key: true)
            report.add(
                "custom_dismiss_removed", location,
                "category \"\(id)\" no longer has the customDismissAction option; installed apps still report "
                    + "dismissals, which the server would refuse. Keep the option")
        }
        comparePayload(into: &report)
        compareActions(into: &report)
        // Only actions registered before and after count: an added or removed action has its own rule.
        let kept = Set(old.category.registeredActions.map(\.id)).intersection(new.category.registeredActions.map(\.id))
        let shownBefore = old.category.androidActions.map(\.id).filter(kept.contains).map(\.rawValue)
        let shownNow = new.category.androidActions.map(\.id).filter(kept.contains).map(\.rawValue)
        if !old.category.retired && !new.category.retired && shownBefore != shownNow {
            let location = new.file.sourceMap.contains("/android") ? new.location("/android") : new.location("/actions")
            report.add(
                "android_actions_changed", location,
                "the actions Android shows for category \"\(id)\" changed from [\(shownBefore.joined(separator: ", "))] to "
                    + "[\(shownNow.joined(separator: ", "))]; installed Android apps show the old ones until they are updated")
        }
    }

    private func comparePayload(into report: inout DiffReport) {
        let before = old.category.payload
        let after = new.category.payload
        for field in before.fields where after[field.key] == nil {
            report.add(
                "payload_key_removed", old.location(pointer(field.key), key: true),
                "payload key \"\(field.key)\" was removed from category \"\(id)\"; old backends still send it and "
                    + "installed apps pass it on, and the server refuses keys a category does not declare. Keep it, "
                    + "optional, until no deployed backend sends it")
        }
        for field in after.fields {
            let key = field.key
            guard let previous = before[key] else {
                if field.required {
                    report.add(
                        "payload_key_required", new.location(pointer(key), key: true),
                        "payload key \"\(key)\" was added as required to category \"\(id)\"; notifications from "
                            + "backends deployed before this change lack it and fail validation. Add it as optional")
                } else {
                    report.add(
                        "payload_key_added", new.location(pointer(key), key: true),
                        "optional payload key \"\(key)\" was added to category \"\(id)\"")
                }
                continue
            }
            if previous.type != field.type {
                report.add(
                    "payload_type_changed", new.location(pointer(key) + "/type"),
                    "payload key \"\(key)\" of category \"\(id)\" changed type from \(previous.type.rawValue) to "
                        + "\(field.type.rawValue); values from old backends and installed apps no longer validate. "
                        + "Add a key with a new name instead")
            }
            if field.required && !previous.required {
                report.add(
                    "payload_key_required", new.location(pointer(key) + "/required", key: true),
                    "payload key \"\(key)\" of category \"\(id)\" was made required; notifications from backends "
                        + "deployed before this change may lack it and fail validation. Keep it optional")
            }
            if field.type == .string, previous.type == .string, let limit = field.maxLength,
                previous.maxLength.map({ limit < $0 }) ?? true
            {
                report.add(
                    "max_length_reduced", new.location(pointer(key) + "/maxLength"),
                    "maxLength of payload key \"\(key)\" of category \"\(id)\" went from "
                        + "\(previous.maxLength.map(String.init) ?? "unlimited") to \(limit); longer values that were "
                        + "valid are now refused. Keep the old limit")
            }
        }
    }

    private func pointer(_ key: String) -> String { "/payload/" + SourceMap.escape(key) }

    private func compareActions(into report: inout DiffReport) {
        let before = old.category.actions
        let after = new.category.actions
        let afterIndex = Dictionary(after.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let beforeIDs = Set(before.map(\.id))
        let addedTitles = after.filter { !beforeIDs.contains($0.id) }
        for (index, action) in before.enumerated() where afterIndex[action.id] == nil {
            if action.retired {
                report.add(
                    "retired_removed", old.location("/actions/\(index)"),
                    "retired action \"\(action.id)\" was removed from category \"\(id)\"; taps from app versions "
                        + "that still show it are now refused, which is safe once no supported app version does")
                continue
            }
            let renamed = addedTitles.first { $0.title == action.title }.map { " (renamed to \"\($0.id)\"?)" } ?? ""
            report.add(
                "action_removed", old.location("/actions/\(index)"),
                "action \"\(action.id)\" was removed from category \"\(id)\"\(renamed) without being retired first; "
                    + "installed apps still show it, and the server would refuse their taps. Keep it with "
                    + "\"retired: true\" until no supported app version shows it, then remove it")
        }
        for (index, action) in after.enumerated() {
            guard let previous = before.first(where: { $0.id == action.id }) else {
                report.add(
                    "action_added", new.location("/actions/\(index)"),
                    "action \"\(action.id)\" was added to category \"\(id)\"; apps show it from their next version")
                continue
            }
            ActionComparison(category: self, old: previous, new: action, index: index).compare(into: &report)
        }
    }

    /// Whether people still see the category's actions: not when it is retired in the new catalog.
    var isRegistered: Bool { !new.category.retired }
}

/// The changes between two declarations of one action.
struct ActionComparison {
    let category: CategoryComparison
    let old: NotificationAction
    let new: NotificationAction
    /// The action's index in the new file.
    let index: Int

    private var name: String { "action \"\(new.id)\" of category \"\(category.id)\"" }
    private func location(_ suffix: String, key: Bool = false) -> SourceLocation {
        category.new.location("/actions/\(index)" + suffix, key: key)
    }

    func compare(into report: inout DiffReport) {
        if !old.retired && new.retired {
            report.add(
                "action_retired", location("/retired", key: true),
                "\(name) was retired: apps stop showing it from their next version, and taps from installed "
                    + "versions are still accepted")
        }
        if old.retired && !new.retired {
            report.add(
                "unretired", location(""), "\(name) is no longer retired: apps show it again from their next version")
        }
        compareInput(into: &report)
        // What a person sees only matters while apps still register the action.
        guard category.isRegistered && !new.retired else { return }
        if old.title != new.title {
            report.add(
                "title_changed", location("/title"),
                "the title of \(name) changed from \(describe(old.title)) to \(describe(new.title)); installed apps "
                    + "show the old title until they are updated")
        }
        if let before = old.input, let after = new.input {
            let texts = [
                ("send button", "button", before.button, after.button), ("placeholder", "placeholder", before.placeholder, after.placeholder),
            ]
            for (part, key, was, now) in texts where was != now {
                report.add(
                    "input_text_changed", location("/input/" + key),
                    "the \(part) of \(name) changed from \(describe(was)) to \(describe(now)); installed apps show the "
                        + "old text until they are updated")
            }
        }
        if old.icon != new.icon {
            report.add(
                "icon_changed", location("/icon"),
                "the icon of \(name) changed from \(describe(old.icon)) to \(describe(new.icon)); installed apps show "
                    + "the old one until they are updated")
        }
        if old.android != new.android {
            report.add(
                "android_action_changed", location("/android"),
                "the Android \(Self.describe(old.android)) of \(name) became \(Self.describe(new.android)); installed Android apps show the "
                    + "old one until they are updated")
        }
        if old.activation != new.activation {
            report.add(
                "activation_changed", location("/activation"),
                "\(name) changed activation from \(old.activation.rawValue) to \(new.activation.rawValue); installed "
                    + "apps still \(old.activation == .foreground ? "open" : "do not open") the app for it, so its "
                    + "handler must work both ways")
        }
        if old.destructive != new.destructive {
            report.add(
                "destructive_changed", location("/destructive"),
                "\(name) \(new.destructive ? "became" : "is no longer") destructive; installed apps show it as before "
                    + "until they are updated")
        }
        if old.authenticationRequired != new.authenticationRequired {
            report.add(
                "authentication_changed", location("/authenticationRequired"),
                "\(name) \(new.authenticationRequired ? "now requires" : "no longer requires") an unlocked device; "
                    + "installed apps keep the old behaviour until they are updated")
        }
        let wasMinimal = category.old.category.contexts.minimal.contains(old.id)
        let isMinimal = category.new.category.contexts.minimal.contains(new.id)
        if wasMinimal != isMinimal {
            let written = category.new.file.explicitContexts.contains(.minimal)
            report.add(
                "minimal_context_changed", written ? category.new.location("/contexts/minimal") : location(""),
                "\(name) moved \(isMinimal ? "into" : "out of") the minimal context; where space is short, installed "
                    + "apps show the old choice until they are updated")
        }
    }

    private func compareInput(into report: inout DiffReport) {
        switch (old.input, new.input) {
        case (.some, nil):
            report.add(
                "input_removed", location(""),
                "\(name) is no longer a text-input action; installed apps still send the text people type, which "
                    + "the server would refuse. Keep the input, or retire the action and add a new one")
        case (nil, .some):
            report.add(
                "input_added", location("/input", key: true),
                "\(name) became a text-input action; installed apps show it as a plain button and send no text. "
                    + "Retire it and add a text-input action with a new identifier")
        case (.some(let before), .some(let after)) where after.maxLength < before.maxLength:
            report.add(
                "max_length_reduced", location("/input/maxLength"),
                "the text input maxLength of \(name) went from \(before.maxLength) to \(after.maxLength); longer "
                    + "replies from installed apps are now refused. Keep the old limit")
        default:
            break
        }
    }

    private func describe(_ title: LocalizedString) -> String {
        switch title {
        case .plain(let text): return "\"\(text)\""
        case .localized(let entries): return "{" + entries.map { "\($0.locale): \"\($0.value)\"" }.joined(separator: ", ") + "}"
        }
    }

    private func describe(_ text: LocalizedString?) -> String {
        text.map(describe) ?? "none"
    }

    /// An action's Android settings as the diff names them.
    static func describe(_ android: AndroidActionOptions?) -> String {
        let parts = [android?.icon.map { "icon \($0)" }, android?.semanticAction.map { "semantic action \($0.rawValue)" }].compactMap { $0 }
        return parts.isEmpty ? "settings (none)" : parts.joined(separator: " and ")
    }

    private func describe(_ icon: ActionIcon?) -> String {
        switch icon {
        case .system(let name): return "system \"\(name)\""
        case .template(let name): return "template \"\(name)\""
        case nil: return "none"
        }
    }
}
