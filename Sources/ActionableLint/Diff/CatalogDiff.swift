public import ActionableCore

/// Compares two catalogs and reports every change that matters to apps already installed and
/// backends already deployed, as diagnostics of the ``DiffRules``.
///
/// Categories are matched by identifier and actions by identifier within their category, so a
/// file may move or be renamed freely. Removals point into the old files, everything else into
/// the new ones.
///
/// ```swift
/// let loader = CatalogLoader()
/// let result = CatalogDiff().diff(
///     old: try loader.load(paths: ["old/Categories"]), new: try loader.load(paths: ["Categories"]))
/// print(Reporter.xcode.report(result, tool: DiffRules.tool))
/// ```
public struct CatalogDiff: Sendable {
    /// Which rules run, and their severities (rule identifiers of ``DiffRules``).
    public var configuration: LintConfiguration

    /// The file name looked for beside the new category files.
    public static let configurationFileName = ".actionable-diff.yml"

    /// Creates a diff.
    public init(configuration: LintConfiguration = LintConfiguration()) {
        self.configuration = configuration
    }

    /// The changes from `old` to `new`. Files that do not load (`syntax` and `schema` errors) are
    /// reported as such, on either side: what they declare cannot be compared. The result's
    /// files are the new ones.
    public func diff(old: [CategoryFile], new: [CategoryFile]) -> LintResult {
        var report = DiffReport(configuration: configuration)
        for file in old + new {
            report.diagnostics += file.diagnostics.filter { $0.severity == .error }
        }
        let before = Self.index(old)
        let after = Self.index(new)
        for (id, entry) in before.sorted(by: { $0.key < $1.key }) {
            guard let now = after[id] else {
                report.removed(category: entry)
                continue
            }
            CategoryComparison(old: entry, new: now).compare(into: &report)
        }
        for (id, entry) in after where before[id] == nil {
            report.add(
                "category_added", entry.location("/category"),
                "category \"\(id)\" was added; apps register it from their next version")
        }
        return LintResult(diagnostics: report.diagnostics.sorted(), files: new.map(\.path))
    }

    /// The first file to declare each category (the linter reports duplicates).
    static func index(_ files: [CategoryFile]) -> [CategoryID: Declared] {
        var index: [CategoryID: Declared] = [:]
        for file in files {
            guard let category = file.category, index[category.id] == nil else { continue }
            index[category.id] = Declared(file: file, category: category)
        }
        return index
    }
}

/// A category and the file it came from.
struct Declared {
    let file: CategoryFile
    let category: NotificationCategory

    /// Where the value at `pointer` is, or its key's position with `key`.
    func location(_ pointer: String, key: Bool = false) -> SourceLocation {
        key ? file.sourceMap.keyLocation(of: pointer) : file.sourceMap.location(of: pointer)
    }
}

/// The diagnostics found so far, with the configured severities.
struct DiffReport {
    let configuration: LintConfiguration
    var diagnostics: [Diagnostic] = []

    mutating func add(_ rule: String, _ location: SourceLocation, _ message: String) {
        let defaultSeverity = DiffRules.byIdentifier[rule]?.severity ?? .error
        guard let severity = configuration.severity(of: rule, default: defaultSeverity) else { return }
        diagnostics.append(Diagnostic(location: location, severity: severity, rule: rule, message: message))
    }

    mutating func removed(category entry: Declared) {
        let id = entry.category.id
        if entry.category.retired {
            add(
                "retired_removed", entry.location("/category"),
                "retired category \"\(id)\" was removed; taps from app versions that still register it are now "
                    + "refused, which is safe once no supported app version does")
        } else {
            add(
                "category_removed", entry.location("/category"),
                "category \"\(id)\" was removed without being retired first; installed apps still register it and "
                    + "send its taps, which the server would refuse. Keep it with \"retired: true\" until no "
                    + "supported app version registers it, then remove it (a rename is a removal to installed apps)")
        }
    }
}
