/// Every rule of this release, in the order of the table in docs/categories-lint-diff.md.
public enum BuiltInRules {
    /// The rule types.
    public static let all: [any LintRule.Type] = [
        SyntaxRule.self,
        SchemaRule.self,
        IdentifierFormatRule.self,
        DuplicateCategoryRule.self,
        DuplicateActionRule.self,
        ReservedIdentifierRule.self,
        TooManyActionsRule.self,
        ContextTooManyActionsRule.self,
        AndroidTooManyActionsRule.self,
        ContextUnknownActionRule.self,
        RetiredInContextRule.self,
        EmptyTitleRule.self,
        ReservedPayloadKeyRule.self,
        MinimalNotPrefixRule.self,
        DestructiveWithoutAuthenticationRule.self,
        DeprecatedOptionRule.self,
        ActionIDReusedRule.self,
        MissingTranslationRule.self,
        FileNameMismatchRule.self,
        DuplicateContextEntryRule.self,
        DuplicateTitleRule.self,
    ]

    /// Android's own rules: they run only for a catalog that targets Android
    /// (``LintConfiguration/targetedPlatforms(_:)``).
    public static let androidRules: Set<String> = [AndroidTooManyActionsRule.description.identifier]

    /// The identifiers of ``all``, in order.
    public static let identifiers: [String] = all.map { $0.description.identifier }

    /// The descriptions of ``all``, keyed by identifier.
    public static let descriptions: [String: RuleDescription] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.description.identifier, $0.description) })
}
