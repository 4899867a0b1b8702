import ActionableCore

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

    /// The report of `result`, ending in a newline when not empty.
    public func report(_ result: LintResult) -> String {
        switch self {
        case .xcode: return XcodeReporter.report(result)
        case .json: return JSONReporter.report(result)
        case .githubActionsLogging: return GitHubActionsReporter.report(result)
        case .sarif: return SARIFReporter.report(result)
        case .junit: return JUnitReporter.report(result)
        }
    }
}
