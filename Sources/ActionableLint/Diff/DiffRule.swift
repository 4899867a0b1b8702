public import ActionableCore

/// What a compatibility rule of `actionable diff` is: its identifier, what it catches, how
/// serious by default, and examples.
///
/// The examples are the rule's tests: each pair of catalogs in ``triggering`` reports the rule
/// exactly at the `↓` markers (in the old files for removals, in the new files otherwise), and
/// no pair in ``nonTriggering`` reports it.
public struct DiffRule: Sendable {
    /// The identifier used in reports and `.actionable-diff.yml` (snake_case).
    public let identifier: String
    /// A one-line summary, shown in the table of docs/categories-lint-diff.md and in SARIF rule metadata.
    public let summary: String
    /// The severity when the configuration does not change it: `error` breaks installed apps or
    /// old backends, `warning` changes what people see, `info` is safe.
    public let severity: Severity
    /// Catalog pairs the rule reports.
    public let triggering: [DiffExample]
    /// Catalog pairs the rule must not report.
    public let nonTriggering: [DiffExample]

    /// Creates a rule description.
    public init(
        identifier: String, summary: String, severity: Severity, triggering: [DiffExample],
        nonTriggering: [DiffExample] = []
    ) {
        self.identifier = identifier
        self.summary = summary
        self.severity = severity
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}

/// An old and a new catalog, as category files with `↓` markers.
public struct DiffExample: Sendable {
    /// The catalog before the change.
    public let old: Example
    /// The catalog after it.
    public let new: Example

    /// A pair of catalogs.
    public init(old: Example, new: Example) {
        self.old = old
        self.new = new
    }

    /// A pair of one-file catalogs.
    public init(old: String, new: String) {
        self.init(old: Example(old), new: Example(new))
    }
}
