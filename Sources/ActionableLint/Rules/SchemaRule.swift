import ActionableCore

/// Reported by the loader: the file does not have the shape of a category file.
public struct SchemaRule: LoaderRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "schema",
        summary: "wrong type, missing `category`/`id`/`title`, unknown key, bad enum value, bad `version`",
        severity: .error,
        triggering: [
            "↓description: no category here\n",
            "category: invite\n↓titel: Hello\n",
            "version: ↓2\ncategory: invite\n",
            "category: invite\nactions:\n  - id: accept\n    title: Accept\n    activation: ↓fore\n",
            "category: invite\nactions:\n  - ↓id: accept\n",
            "category: invite\nactions:\n  - id: accept\n    title: Accept\n    destructive: ↓yes\n",
            "category: invite\npayload:\n  inviteId: ↓text\n",
            "category: invite\noptions: [↓customDismiss]\n",
        ],
        nonTriggering: [
            "version: 1\ncategory: invite\npayload:\n  inviteId: { type: string, required: true, maxLength: 64 }\n",
            "category: invite\nactions:\n  - id: accept\n    title: { en: Accept, zh-Hans: 接受 }\n    destructive: false\n",
        ]
    )
}
