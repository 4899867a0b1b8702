import ActionableCore

extension NotificationCategory {
    /// Calls `body` with every string a person reads and its ordinal, in file order, without
    /// allocating.
    func forEachReadableString(_ body: (Int, LocalizedString) -> Void) {
        var ordinal = 0
        func visit(_ text: LocalizedString?) {
            guard let text else { return }
            body(ordinal, text)
            ordinal += 1
        }
        visit(hiddenPreviewsBodyPlaceholder)
        visit(summaryFormat)
        for action in actions {
            visit(action.title)
            visit(action.input?.button)
            visit(action.input?.placeholder)
        }
    }

    /// The JSON pointer and a name for messages of the readable string numbered `ordinal` by
    /// ``forEachReadableString(_:)``. Only called for violations.
    func describeReadableString(_ ordinal: Int) -> (pointer: String, name: String) {
        var places: [(String, String)] = []
        if hiddenPreviewsBodyPlaceholder != nil {
            places.append(("/hiddenPreviewsBodyPlaceholder", "hiddenPreviewsBodyPlaceholder"))
        }
        if summaryFormat != nil { places.append(("/summaryFormat", "summaryFormat")) }
        for (index, action) in actions.enumerated() {
            places.append(("/actions/\(index)/title", "the title of action \"\(action.id)\""))
            if action.input?.button != nil {
                places.append(("/actions/\(index)/input/button", "the input button of action \"\(action.id)\""))
            }
            if action.input?.placeholder != nil {
                places.append(("/actions/\(index)/input/placeholder", "the input placeholder of action \"\(action.id)\""))
            }
        }
        return places.indices.contains(ordinal) ? places[ordinal] : ("", "a string")
    }
}
