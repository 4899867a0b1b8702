public import ActionableCore

/// What a rule is: its identifier, what it catches, how serious by default, and examples.
///
/// The examples are the rule's tests: a test loads each one and checks that the rule reports
/// exactly at the `↓` markers of `triggering` examples and nowhere in `nonTriggering` ones.
public struct RuleDescription: Sendable {
    /// The identifier used in reports and `.actionable-lint.yml` (snake_case).
    public let identifier: String
    /// A one-line summary, shown in the table of docs/categories-lint-diff.md and in SARIF rule metadata.
    public let summary: String
    /// The severity when the configuration does not change it.
    public let severity: Severity
    /// Files the rule reports, with `↓` before each node it must point at.
    public let triggering: [Example]
    /// Files the rule must not report.
    public let nonTriggering: [Example]

    /// Creates a description.
    public init(
        identifier: String, summary: String, severity: Severity, triggering: [Example], nonTriggering: [Example]
    ) {
        self.identifier = identifier
        self.summary = summary
        self.severity = severity
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// One or more category files used as a rule example. `↓` marks where a diagnostic must point.
public struct Example: Sendable, ExpressibleByStringLiteral {
    /// The files: a name (which decides the `file_name_mismatch` rule) and the text with markers.
    public let files: [(name: String, text: String)]

    /// A single file; its name is `<category>.yaml`, taken from its `category:` line.
    public init(_ text: String) {
        files = [(Example.defaultName(for: text), text)]
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Several files, checked together as one catalog.
    public init(files: [(name: String, text: String)]) { self.files = files }

    /// The marker character.
    public static let marker: Character = "↓"

    static func defaultName(for text: String) -> String {
        for line in text.split(separator: "\n") where line.hasPrefix("category:") {
            let value = line.dropFirst("category:".count).trimmingPrefix(" ")
            let id = value.prefix { !$0.isWhitespace && $0 != "#" && $0 != "↓" }
            let clean = id.isEmpty ? value.dropFirst().prefix { !$0.isWhitespace } : id
            return String(clean).replacingOccurrences(of: "↓", with: "") + ".yaml"
        }
        return "example.yaml"
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// A problem a rule found: where, and what to do. The engine adds the rule and its severity.
public struct Violation: Hashable, Sendable {
    /// Where the offending node starts.
    public var location: SourceLocation
    /// What is wrong and the fix.
    public var message: String

    /// Creates a violation.
    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }
}

/// A lint rule. Conform through ``FileRule`` (one file at a time) or ``CatalogRule`` (all files).
public protocol LintRule: Sendable {
    /// The rule's identifier, summary, severity and examples.
    static var description: RuleDescription { get }
    init()
}

/// A rule that looks at one file's category at a time.
public protocol FileRule: LintRule {
    /// The violations in `category`, decoded from `file`.
    func validate(_ category: NotificationCategory, in file: CategoryFile) -> [Violation]
}

/// A rule that looks across the whole catalog. It must run in time linear in the catalog.
public protocol CatalogRule: LintRule {
    /// The violations across `files` (only files whose category decoded are passed).
    func validate(_ files: [(file: CategoryFile, category: NotificationCategory)]) -> [Violation]
}

/// A rule whose diagnostics the loader produces (`syntax`, `schema`); listed so that it has a
/// description, examples and configuration like every other rule.
public protocol LoaderRule: LintRule {}
