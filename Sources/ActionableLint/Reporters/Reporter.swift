public import ActionableCore

/// The output formats of `actionable lint`. Each is a pure function of a ``LintResult``.
public enum Reporter: String, CaseIterable, Sendable {
    /// `path:line:column: error: message (rule)`, which Xcode and most editors link.
    case xcode
    /// `{"diagnostics": [...], "summary": {...}}`.
    case json
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message (rule)`.
    case githubActionsLogging = "github-actions-logging"
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
    case sarif
    /// JUnit XML, one test case per file, for CI systems that show test reports.
    case junit

    /// The report of `result`, ending in a newline when not empty. `tool` names the command
    /// and lists the rules it has (SARIF and JUnit name them).
    public func report(_ result: LintResult, tool: ReportTool = .lint) -> String {
        switch self {
        case .xcode: return XcodeReporter.report(result)
        case .json: return JSONReporter.report(result)
        case .githubActionsLogging: return GitHubActionsReporter.report(result)
        case .sarif: return SARIFReporter.report(result, tool: tool)
        case .junit: return JUnitReporter.report(result, tool: tool)
        }
    }
}

/// The command a report comes from: its name, and every rule it can report.
public struct ReportTool: Sendable {
    /// One rule as reports describe it.
    public struct Rule: Sendable, Hashable {
        /// The rule's identifier.
        public let identifier: String
        /// A one-line summary (Markdown backticks allowed).
        public let summary: String
        /// Its default severity.
        public let severity: Severity

        /// Creates a rule entry.
        public init(identifier: String, summary: String, severity: Severity) {
            self.identifier = identifier
            self.summary = summary
            self.severity = severity
        }
    }

    /// The command, as JUnit names its suite: `actionable lint`.
    public let name: String
    /// The rules, in the order reports list them.
    public let rules: [Rule]

    /// Creates a tool description.
    public init(name: String, rules: [Rule]) {
        self.name = name
        self.rules = rules
    }

    /// `actionable lint` and its built-in rules.
    public static let lint = ReportTool(
        name: "actionable lint",
        rules: BuiltInRules.all.map {
            Rule(identifier: $0.description.identifier, summary: $0.description.summary, severity: $0.description.severity)
        })
}
