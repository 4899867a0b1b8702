import ActionableCore

/// Reported by the loader: the file is not YAML/JSON, has duplicate keys, or breaks a limit.
public struct SyntaxRule: LoaderRule {
    public init() {}
    public static let description = RuleDescription(
        identifier: "syntax",
        summary: "not valid YAML/JSON; duplicate mapping keys",
        severity: .error,
        triggering: [
            "category: invite\nactions: [\n↓",
            "category: invite\nactions:\n  - id: accept\n    title: Accept\n    ↓id: again\n",
            Example(files: [("broken.json", "{\"category\": \"invite\" ↓\"actions\": []}")]),
        ],
        nonTriggering: [
            "category: invite\nactions:\n  - id: accept\n    title: Accept\n",
            Example(files: [("invite.json", "{\"category\": \"invite\", \"actions\": []}")]),
        ]
    )
}
