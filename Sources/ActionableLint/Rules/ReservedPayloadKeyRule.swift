public import ActionableCore

/// `aps` belongs to APNs and `actionToken` to Actionable.
public struct ReservedPayloadKeyRule: FileRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "reserved_payload_key",
        summary: "a payload key `aps` or `actionToken`",
        severity: .error,
        triggering: [
            "category: invite\npayload:\n  ↓aps: object\n  ↓actionToken: string\n"
        ],
        nonTriggering: [
            "category: invite\npayload:\n  inviteId: string\n  apsExtra: object\n"
        ]
    )

    public func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation] {
        category.payload.fields.compactMap { field in
            guard PayloadSchema.reservedKeys.contains(field.key) else { return nil }
            let owner = field.key == "aps" ? "APNs" : "Actionable (it carries the action token)"
            return Violation(
                file.sourceMap.keyLocation(of: "/payload/" + SourceMap.escape(field.key)),
                "payload key \"\(field.key)\" is reserved for \(owner); rename it")
        }
    }
}
