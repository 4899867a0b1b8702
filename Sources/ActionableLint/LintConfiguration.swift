import ActionableCore
import Foundation
import Yams

/// Which rules run and how serious they are: the content of `.actionable-lint.yml`.
///
/// ```yaml
/// disabled_rules: [file_name_mismatch]
/// severities:
///   action_id_reused: error
///   duplicate_title: warning
/// ```
public struct LintConfiguration: Hashable, Sendable {
    /// Rules that do not run.
    public var disabledRules: Set<String>
    /// Severities that replace the rules' defaults.
    public var severities: [String: Severity]

    /// The file name looked for beside the category files.
    public static let fileName = ".actionable-lint.yml"

    /// Creates a configuration.
    public init(disabledRules: Set<String> = [], severities: [String: Severity] = [:]) {
        self.disabledRules = disabledRules
        self.severities = severities
    }

    /// The severity of lint rule `rule` under this configuration, or `nil` when disabled.
    public func severity(of rule: String) -> Severity? {
        severity(of: rule, default: BuiltInRules.descriptions[rule]?.severity ?? .error)
    }

    /// The severity of `rule`, whose default is `defaultSeverity`, or `nil` when disabled.
    public func severity(of rule: String, default defaultSeverity: Severity) -> Severity? {
        if disabledRules.contains(rule) { return nil }
        return severities[rule] ?? defaultSeverity
    }

    /// Parses a configuration file. Unknown keys and rule identifiers are errors with a suggestion,
    /// so a typo never silently leaves a rule on. `rules` are the identifiers the file may name
    /// (the lint rules unless given). Throws ``ConfigurationError``.
    public init(yaml text: String, path: String, rules known: [String] = BuiltInRules.identifiers) throws {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError("\(path): not valid YAML: \(error)")
        }
        self.init()
        guard let root else { return }
        guard case .mapping(let mapping) = root else {
            throw ConfigurationError("\(path): expected a mapping with disabled_rules and severities")
        }
        func checkRule(_ node: Node) throws -> String {
            guard let id = node.string else { throw ConfigurationError("\(path):\(Self.position(node)): expected a rule id") }
            guard known.contains(id) else {
                throw ConfigurationError(
                    "\(path):\(Self.position(node)): unknown rule \"\(id)\""
                        + Suggestion.didYouMean(id, in: known))
            }
            if id == "syntax" {
                throw ConfigurationError(
                    "\(path):\(Self.position(node)): the syntax rule cannot be disabled or "
                        + "downgraded: a file that cannot be parsed cannot be checked")
            }
            return id
        }
        for (keyNode, value) in mapping {
            switch keyNode.string {
            case "disabled_rules":
                guard case .sequence(let sequence) = value else {
                    throw ConfigurationError("\(path):\(Self.position(value)): disabled_rules must be a list of rule ids")
                }
                for element in sequence { disabledRules.insert(try checkRule(element)) }
            case "severities":
                guard case .mapping(let entries) = value else {
                    throw ConfigurationError("\(path):\(Self.position(value)): severities must map rule ids to error, warning or info")
                }
                for (rule, severity) in entries {
                    let id = try checkRule(rule)
                    guard let name = severity.string, let parsed = Severity(rawValue: name) else {
                        throw ConfigurationError("\(path):\(Self.position(severity)): severity must be error, warning or info")
                    }
                    severities[id] = parsed
                }
            default:
                let key = keyNode.string ?? "?"
                throw ConfigurationError(
                    "\(path):\(Self.position(keyNode)): unknown key \"\(key)\""
                        + Suggestion.didYouMean(key, in: ["disabled_rules", "severities"]))
            }
        }
    }

    /// Reads a configuration file; `rules` as in ``init(yaml:path:rules:)``.
    public init(contentsOf path: String, rules: [String] = BuiltInRules.identifiers) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("\(path): cannot be read")
        }
        guard data.count <= 1 << 20, let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError("\(path): not a UTF-8 text file of at most 1 MiB")
        }
        try self.init(yaml: text, path: path, rules: rules)
    }

    private static func position(_ node: Node) -> String {
        node.mark.map { "\($0.line):\($0.column)" } ?? "1:1"
    }
}

/// A configuration file that cannot be used; the linter exits with status 2.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, with the file's position.
    public let description: String
    init(_ description: String) { self.description = description }
}
