import ActionableCore

extension CategoryFile {
    /// The contexts the file wrote out, with their JSON pointers and action lists (derived
    /// contexts cannot be wrong, so rules about contexts look only at these).
    func writtenContexts(of category: NotificationCategory) -> [(name: String, pointer: String, ids: [ActionID])] {
        var contexts: [(name: String, pointer: String, ids: [ActionID])] = []
        if explicitContexts.contains(.default) { contexts.append(("default", "/contexts/default", category.contexts.default)) }
        if explicitContexts.contains(.minimal) { contexts.append(("minimal", "/contexts/minimal", category.contexts.minimal)) }
        return contexts
    }
}
