import ActionableCore

extension NotificationCategory {
    /// Every string a person reads, with its JSON pointer and a name for messages.
    var readableStrings: [(pointer: String, name: String, text: LocalizedString)] {
        var strings: [(pointer: String, name: String, text: LocalizedString)] = []
        if let text = hiddenPreviewsBodyPlaceholder {
            strings.append(("/hiddenPreviewsBodyPlaceholder", "hiddenPreviewsBodyPlaceholder", text))
        }
        if let text = summaryFormat { strings.append(("/summaryFormat", "summaryFormat", text)) }
        for (index, action) in actions.enumerated() {
            strings.append(("/actions/\(index)/title", "the title of action \"\(action.id)\"", action.title))
            if let button = action.input?.button {
                strings.append(("/actions/\(index)/input/button", "the input button of action \"\(action.id)\"", button))
            }
            if let placeholder = action.input?.placeholder {
                strings.append((
                    "/actions/\(index)/input/placeholder", "the input placeholder of action \"\(action.id)\"", placeholder
                ))
            }
        }
        return strings
    }
}
