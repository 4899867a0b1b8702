import ActionableCore

/// `path:line:column: error: message (rule_id)` per diagnostic.
enum XcodeReporter {
    static func report(_ result: LintResult) -> String {
        result.diagnostics.map { $0.description + "\n" }.joined()
    }
}
