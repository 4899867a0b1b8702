public import ActionableCore
import Foundation
import Yams

/// Which rules run and how serious they are: the content of `.actionable-lint.yml`.
///
/// ```yaml
/// platforms: [ios, android]
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
    /// The platforms the catalog targets (`platforms:`); `nil` when the file does not say, and
    /// the catalog then targets iOS, and Android too when a category has `android:` keys.
    /// A platform's own rules (``BuiltInRules/androidRules``) run only when it is targeted.
    public var platforms: Set<LintPlatform>?

    /// The file name looked for beside the category files.
    public static let fileName = ".actionable-lint.yml"

    /// Creates a configuration.
    public init(disabledRules: Set<String> = [], severities: [String: Severity] = [:], platforms: Set<LintPlatform>? = nil) {
        self.disabledRules = disabledRules
        self.severities = severities
        self.platforms = platforms
    }

    /// The platforms a catalog of `files` targets: ``platforms`` when set, else iOS, with Android
    /// when any category (or any of its actions) has `android:` keys.
    public func targetedPlatforms(_ files: [CategoryFile]) -> Set<LintPlatform> {
        if let platforms { return platforms }
        let android = files.contains { file in
            guard let category = file.category else { return false }
            return category.androidActionIDs != nil || category.actions.contains { $0.android != nil }
        }
        return android ? [.ios, .android] : [.ios]
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
            throw ConfigurationError("\(path): expected a mapping with platforms, disabled_rules and severities")
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
            case "platforms":
                let names = LintPlatform.allCases.map(\.rawValue)
                guard case .sequence(let sequence) = value, !sequence.isEmpty else {
                    throw ConfigurationError(
                        "\(path):\(Self.position(value)): platforms must be a list of \(names.joined(separator: ", ")), e.g. [ios, android]")
                }
                var platforms = Set<LintPlatform>()
                for element in sequence {
                    guard let name = element.string, let platform = LintPlatform(rawValue: name) else {
                        let name = element.string ?? "?"
                        throw ConfigurationError(
                            "\(path):\(Self.position(element)): unknown platform \"\(name)\" (platforms are \(names.joined(separator: ", ")))"
                                + Suggestion.didYouMean(name, in: names))
                    }
                    platforms.insert(platform)
                }
                self.platforms = platforms
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
                        + Suggestion.didYouMean(key, in: ["platforms", "disabled_rules", "severities"]))
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

/// A platform a catalog can target (`platforms:` in `.actionable-lint.yml`).
public enum LintPlatform: String, CaseIterable, Hashable, Sendable, Comparable {
    case ios
    case android

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A configuration file that cannot be used; the linter exits with status 2.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, with the file's position.
    public let description: String
    init(_ description: String) { self.description = description }
}
