public import ActionableCore

/// An action may not take Apple's own identifiers for "opened" and "dismissed".
public struct ReservedIdentifierRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "reserved_identifier",
        summary: "an action id equal to Apple's default/dismiss identifiers",
        severity: .error,
        triggering: [
            "category: invite\nactions:\n  - id: ↓com.apple.UNNotificationDefaultActionIdentifier\n    title: Open\n",
            "category: invite\nactions:\n  - id: ↓com.apple.UNNotificationDismissActionIdentifier\n    title: Close\n",
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - id: com.example.open\n    title: Open\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        category.actions.enumerated().compactMap { index, action in
            guard action.id.isAppleReserved else { return nil }
            return Violation(
                file.sourceMap.location(of: "/actions/\(index)/id"),
                "\"\(action.id)\" is Apple's own identifier, sent when the user opens or dismisses the notification; "
                    + "choose another id")
        }
    }
}
