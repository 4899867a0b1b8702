import ActionableCore

/// Runs the rules over loaded category files: each file alone, then all of them as one catalog.
///
/// ```swift
/// let files = try CatalogLoader().load(paths: ["Categories"])
/// let result = Linter().lint(files)
/// print(Reporter.xcode.report(result))
/// ```
public struct Linter: Sendable {
    /// Which rules run, and their severities.
    public var configuration: LintConfiguration

    /// Creates a linter.
    public init(configuration: LintConfiguration = LintConfiguration()) {
        self.configuration = configuration
    }

    /// Lints `files` (as returned by ``CatalogLoader``).
    public func lint(_ files: [CategoryFile]) -> LintResult {
        var diagnostics: [Diagnostic] = []
        for file in files {
            for diagnostic in file.diagnostics {
                guard let severity = configuration.severity(of: diagnostic.rule) else { continue }
                var adjusted = diagnostic
                adjusted.severity = severity
                diagnostics.append(adjusted)
            }
        }
        let decoded = files.compactMap { file in file.category.map { (file: file, category: $0) } }
        for ruleType in BuiltInRules.all {
            let id = ruleType.description.identifier
            guard let severity = configuration.severity(of: id) else { continue }
            let violations: [Violation]
            switch ruleType.init() {
            case let rule as any FileRule:
                violations = decoded.flatMap { rule.validate($0.category, in: $0.file) }
            case let rule as any CatalogRule:
                violations = rule.validate(decoded)
            default:
                continue  // loader rules: reported above
            }
            diagnostics += violations.map {
                Diagnostic(location: $0.location, severity: severity, rule: id, message: $0.message)
            }
        }
        return LintResult(diagnostics: diagnostics.sorted(), files: files.map(\.path))
    }
}

/// What a lint run found.
public struct LintResult: Hashable, Sendable {
    /// Every diagnostic, sorted by file, line, column and rule.
    public let diagnostics: [Diagnostic]
    /// The paths of the files checked, in the order they were loaded.
    public let files: [String]

    /// Creates a result.
    public init(diagnostics: [Diagnostic], files: [String]) {
        self.diagnostics = diagnostics
        self.files = files
    }

    /// How many files were checked.
    public var fileCount: Int { files.count }

    /// The number of errors.
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    /// The number of warnings.
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }

    /// The exit status of `actionable lint`: 1 when there are errors (or warnings under
    /// `strict`), otherwise 0.
    public func exitStatus(strict: Bool) -> Int32 {
        errorCount > 0 || (strict && warningCount > 0) ? 1 : 0
    }
}
