/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    /// Worth knowing, never a failure (`actionable diff` reports additions this way).
    case info
    /// Reported, but does not fail a run unless `--strict` is given.
    case warning
    /// Fails the run.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// The word compilers and Xcode use: `error`, `warning`, or `note` for ``info``.
    public var compilerName: String { self == .info ? "note" : rawValue }
}

/// One finding about a category file: where, how serious, which rule, and what to do.
///
/// The loader produces diagnostics of the rules `syntax` and `schema`; the linter adds its own.
public struct Diagnostic: Hashable, Sendable, Error {
    /// Where the offending node starts.
    public var location: SourceLocation
    /// How serious it is.
    public var severity: Severity
    /// The rule's identifier, for example `duplicate_action`.
    public var rule: String
    /// What is wrong and, where there is one, the fix.
    public var message: String

    /// Creates a diagnostic.
    public init(location: SourceLocation, severity: Severity, rule: String, message: String) {
        self.location = location
        self.severity = severity
        self.rule = rule
        self.message = message
    }
}

extension Diagnostic: Comparable {
    /// Diagnostics sort by file, line, column, then rule, so reports are stable.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.rule != rhs.rule { return lhs.rule < rhs.rule }
        return lhs.message < rhs.message
    }
}

extension Diagnostic: CustomStringConvertible {
    /// The Xcode form: `path:line:column: error: message (rule)` (`note:` for information).
    public var description: String {
        "\(location): \(severity.compilerName): \(message) (\(rule))"
    }
}
