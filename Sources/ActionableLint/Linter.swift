public import ActionableCore

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

    /// Loads and lints every category file under `paths`: each file is linted on the core that
    /// loaded it, while it is still in cache; catalog rules then run once over the whole catalog.
    /// Returns the loaded files too, for callers that go on to use the catalog.
    public func lint(
        paths: [String], loader: CatalogLoader = CatalogLoader()
    ) throws(LoaderError)
        -> (files: [CategoryFile], result: LintResult)
    {
        let paths = try loader.categoryFiles(in: paths)
        // Android's rules wait for the whole catalog when the configuration does not name the
        // platforms: whether any category has android: keys decides whether they run.
        let known = configuration.platforms
        let rules = activeRules(for: known ?? [.ios])
        let perFile = ParallelChunks.flatMap(count: paths.count) { range in
            paths[range].map { path in
                let file = loader.loadFile(at: path)
                return (file, Self.fileDiagnostics(file, rules.perFile, configuration))
            }
        }
        let files = perFile.map(\.0)
        var diagnostics = perFile.flatMap(\.1) + Self.catalogDiagnostics(files, rules.catalog)
        if known == nil, configuration.targetedPlatforms(files).contains(.android) {
            let android = activeRules(for: [.android], only: BuiltInRules.androidRules)
            diagnostics += ParallelChunks.flatMap(count: files.count) { range in
                files[range].flatMap { Self.ruleDiagnostics($0, android.perFile) }
            }
            diagnostics += Self.catalogDiagnostics(files, android.catalog)
        }
        return (files, LintResult(diagnostics: diagnostics.sorted(), files: files.map(\.path)))
    }

    /// Lints `files` (as returned by `CatalogLoader`). Per-file rules run on all cores;
    /// catalog rules then run once over the whole catalog, in time linear in its size.
    public func lint(_ files: [CategoryFile]) -> LintResult {
        let rules = activeRules(for: configuration.targetedPlatforms(files))
        let configuration = self.configuration
        var diagnostics = ParallelChunks.flatMap(count: files.count) { range in
            files[range].flatMap { Self.fileDiagnostics($0, rules.perFile, configuration) }
        }
        diagnostics += Self.catalogDiagnostics(files, rules.catalog)
        return LintResult(diagnostics: diagnostics.sorted(), files: files.map(\.path))
    }

    private typealias FileRules = [(id: String, severity: Severity, rule: any FileRule)]
    private typealias CatalogRules = [(id: String, severity: Severity, rule: any CatalogRule)]

    /// The rules that run for a catalog targeting `platforms` (a platform's own rules only when
    /// it is targeted), or only those of `only`.
    private func activeRules(for platforms: Set<LintPlatform>, only: Set<String>? = nil) -> (perFile: FileRules, catalog: CatalogRules) {
        var perFile: FileRules = []
        var catalog: CatalogRules = []
        for ruleType in BuiltInRules.all {
            let id = ruleType.description.identifier
            if let only, !only.contains(id) { continue }
            if BuiltInRules.androidRules.contains(id), !platforms.contains(.android) { continue }
            guard let severity = configuration.severity(of: id) else { continue }
            switch ruleType.init() {
            case let rule as any FileRule: perFile.append((id, severity, rule))
            case let rule as any CatalogRule: catalog.append((id, severity, rule))
            default: continue  // loader rules: their diagnostics come with the files
            }
        }
        return (perFile, catalog)
    }

    /// The file's load diagnostics (with configured severities) and its per-file rule violations.
    private static func fileDiagnostics(
        _ file: CategoryFile, _ rules: FileRules, _ configuration: LintConfiguration
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for diagnostic in file.diagnostics {
            guard let severity = configuration.severity(of: diagnostic.rule) else { continue }
            var adjusted = diagnostic
            adjusted.severity = severity
            found.append(adjusted)
        }
        return found + ruleDiagnostics(file, rules)
    }

    /// The file's violations of `rules`.
    private static func ruleDiagnostics(_ file: CategoryFile, _ rules: FileRules) -> [Diagnostic] {
        var found: [Diagnostic] = []
        guard let category = file.category else { return found }
        for (id, severity, rule) in rules {
            for violation in rule.validate(category, in: file) {
                found.append(
                    Diagnostic(
                        location: violation.location, severity: severity, rule: id,
                        message: violation.message))
            }
        }
        return found
    }

    /// Catalog rules are independent of each other: they run side by side.
    private static func catalogDiagnostics(_ files: [CategoryFile], _ rules: CatalogRules) -> [Diagnostic] {
        guard !rules.isEmpty else { return [] }
        let decoded = files.compactMap { file in file.category.map { (file: file, category: $0) } }
        return ParallelChunks.flatMap(count: rules.count, chunkSize: 1) { range in
            range.flatMap { index in
                let (id, severity, rule) = rules[index]
                return rule.validate(decoded).map {
                    Diagnostic(location: $0.location, severity: severity, rule: id, message: $0.message)
                }
            }
        }
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
    /// The number of information diagnostics (never a failure).
    public var infoCount: Int { diagnostics.count { $0.severity == .info } }

    /// The exit status of `actionable lint`: 1 when there are errors (or warnings under
    /// `strict`), otherwise 0.
    public func exitStatus(strict: Bool) -> Int32 {
        errorCount > 0 || (strict && warningCount > 0) ? 1 : 0
    }
}
