import ActionableCore

/// GitHub Actions workflow commands, which the runner turns into annotations on the diff.
enum GitHubActionsReporter {
    static func report(_ result: LintResult) -> String {
        result.diagnostics.map { diagnostic in
            let location = diagnostic.location
            let properties = "file=\(escapeProperty(location.file)),line=\(location.line),col=\(location.column)"
            return "::\(command(diagnostic.severity)) \(properties)::\(escapeData(diagnostic.message)) (\(diagnostic.rule))\n"
        }.joined()
    }

    /// The workflow commands are `error`, `warning` and `notice`.
    static func command(_ severity: Severity) -> String { severity == .info ? "notice" : severity.rawValue }

    /// Escaping of a command's message, as `@actions/core` does it.
    static func escapeData(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// Escaping of a command's property values, as `@actions/core` does it.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
