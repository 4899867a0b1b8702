import ActionableCore
import Foundation

/// One setting of the server, declared once: its key, the value it takes and how that value is
/// parsed, its bounds, its help and the property of ``ActionableConfiguration`` it sets (whose own
/// default is the setting's default). Everything else follows from the declarations in ``all``:
/// ``ActionableConfiguration/init(reader:)`` reads each from any configuration provider,
/// ``ActionableConfiguration/validate()`` checks each value in force against its bounds,
/// `actionable serve` takes each as a flag and lists it in its help, and the settings table of
/// the docs is rendered from them.
///
/// The key is the flag's name without `--`. The same key names the setting in a JSON file of
/// settings (`{"port": 9000}`), and `ACTIONABLE_` and the key in capitals with `_` for `-`
/// name its environment variable (`ACTIONABLE_BADGE_LIFETIME`).
public struct ServeSetting: Sendable, Hashable, CustomStringConvertible {
    /// What a setting's value is.
    public enum Kind: Sendable, Hashable {
        /// Text.
        case text
        /// A whole number.
        case integer
        /// A number and a unit: `90s`, `30m`, `12h`, `7d`.
        case duration
        /// On or off (a flag without a value on the command line).
        case toggle
        /// Text, repeatable (a repeated flag; comma-separated in the environment; an array in a file).
        case list
    }

    /// The flag's name without `--`, and the JSON file's key.
    public let key: String
    /// What its value is.
    public let kind: Kind
    /// What the value looks like in the docs: `DIR`, `N`, `DURATION`, `ID=SECRET`.
    public let placeholder: String
    /// What it does, one sentence or two.
    public let help: String
    /// Whether the value is a secret (never logged or printed).
    public let isSecret: Bool
    /// The default as the command line would write it, read from ``ActionableConfiguration``'s
    /// own default (the one home of each default); `nil` when there is none.
    public var defaultValue: String? { written(ActionableConfiguration()) }

    /// The setting's value in force in `configuration`, as the command line would write it
    /// (`nil`: none; a secret list says only how many it holds). A secret text comes out as it
    /// is, so that a value can be written back: never log or print it (``isSecret`` says which).
    package func value(in configuration: ActionableConfiguration) -> String? { written(configuration) }

    /// The value in force in a configuration, as the command line would write it.
    private let written: @Sendable (ActionableConfiguration) -> String?
    /// Sets the property from the value `reader` holds for the setting, if it holds one.
    let read: @Sendable (SettingReader, inout ActionableConfiguration) throws(ConfigurationError) -> Void
    /// Checks the value in force against the setting's bounds.
    let check: @Sendable (ActionableConfiguration) throws(ConfigurationError) -> Void

    private init(
        _ key: String, _ kind: Kind, _ placeholder: String, secret: Bool, _ help: String,
        written: @escaping @Sendable (ActionableConfiguration) -> String?,
        read: @escaping @Sendable (SettingReader, inout ActionableConfiguration) throws(ConfigurationError) -> Void,
        check: @escaping @Sendable (ActionableConfiguration) throws(ConfigurationError) -> Void = { _ throws(ConfigurationError) in }
    ) {
        self.key = key
        self.kind = kind
        self.placeholder = placeholder
        self.isSecret = secret
        self.help = help
        self.written = written
        self.read = read
        self.check = check
    }

    /// `--key`.
    public var flag: String { "--\(key)" }

    /// The environment variable: `ACTIONABLE_` and the key in capitals, `_` for `-`.
    public var environmentVariable: String { "ACTIONABLE_" + key.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The help of `actionable serve --help`: ``help`` without Markdown, and the default.
    package var commandLineHelp: String {
        let text = help.replacingOccurrences(of: "`", with: "")
        guard let defaultValue, kind != .toggle else { return text + "." }
        return "\(text) (default: \(defaultValue))."
    }

    public static func == (lhs: ServeSetting, rhs: ServeSetting) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// How the docs name it: `--retention DURATION`.
    public var description: String { placeholder.isEmpty ? flag : "\(flag) \(placeholder)" }
}

/// A configuration's property a setting sets.
typealias Property<Value> = any WritableKeyPath<ActionableConfiguration, Value> & Sendable

// The kinds of declaration: each reads its value, writes its default and checks its bounds.
extension ServeSetting {
    /// Text the configuration always has (its default is the property's).
    static func text(_ key: String, _ property: Property<String>, _ placeholder: String, secret: Bool = false, _ help: String) -> ServeSetting {
        ServeSetting(key, .text, placeholder, secret: secret, help, written: { $0[keyPath: property] }) {
            reader, configuration throws(ConfigurationError) in
            if let value = try reader.text(key, secret: secret) { configuration[keyPath: property] = value }
        }
    }

    /// Text the configuration may lack (no default), parsed by `parse` (the error names the flag).
    static func text<Value: CustomStringConvertible & Sendable>(
        _ key: String, _ property: Property<Value?>, _ placeholder: String, secret: Bool = false, _ help: String,
        parse: @escaping @Sendable (String) throws(ConfigurationError) -> Value
    ) -> ServeSetting {
        ServeSetting(key, .text, placeholder, secret: secret, help, written: { $0[keyPath: property]?.description }) {
            reader, configuration throws(ConfigurationError) in
            guard let text = try reader.text(key, secret: secret) else { return }
            do throws(ConfigurationError) {
                configuration[keyPath: property] = try parse(text)
            } catch {
                throw ConfigurationError("--\(key): \(error)", usage: error.isUsage)
            }
        }
    }

    /// Optional text, as given.
    static func text(_ key: String, _ property: Property<String?>, _ placeholder: String, secret: Bool = false, _ help: String) -> ServeSetting {
        text(key, property, placeholder, secret: secret, help) { text throws(ConfigurationError) in text }
    }

    /// A whole number within `bounds` (`zero`: what 0 means, when it is allowed below the bounds).
    static func integer(
        _ key: String, _ property: Property<Int>, _ placeholder: String = "N", in bounds: ClosedRange<Int>, zero: String? = nil, _ help: String
    ) -> ServeSetting {
        ServeSetting(
            key, .integer, placeholder, secret: false, help, written: { String($0[keyPath: property]) },
            read: { reader, configuration throws(ConfigurationError) in
                if let value = try reader.integer(key) { configuration[keyPath: property] = value }
            },
            check: { configuration throws(ConfigurationError) in
                let value = configuration[keyPath: property]
                guard !bounds.contains(value) && !(zero != nil && value == 0) else { return }
                throw ConfigurationError("--\(key) must be \(Bounds.describe(bounds, zero: zero)), not \(value)", usage: true)
            })
    }

    /// A duration within `bounds` (`zero`: what `0` means, when it may be written).
    static func duration<Value>(
        _ key: String, _ property: Property<Value>, in bounds: ClosedRange<TimeInterval>, zero: String? = nil, _ help: String,
        seconds: @escaping @Sendable (Value) -> TimeInterval?, value: @escaping @Sendable (TimeInterval) -> Value
    ) -> ServeSetting {
        @Sendable func check(_ value: TimeInterval) throws(ConfigurationError) {
            guard !bounds.contains(value) && !(zero != nil && value == 0) else { return }
            throw ConfigurationError("--\(key) must be \(Bounds.describe(bounds, zero: zero)), not \(DurationText.text(value))", usage: true)
        }
        return ServeSetting(
            key, .duration, "DURATION", secret: false, help, written: { seconds($0[keyPath: property]).map(DurationText.text) },
            read: { reader, configuration throws(ConfigurationError) in
                guard let given = try reader.duration(key, zeroAllowed: zero != nil) else { return }
                // Checked before it becomes the property's type: a `Duration` of 1e300 days traps.
                try check(given)
                configuration[keyPath: property] = value(given)
            },
            check: { configuration throws(ConfigurationError) in
                if let value = seconds(configuration[keyPath: property]) { try check(value) }
            })

    }

    static func duration(
        _ key: String, _ property: Property<Duration>, in bounds: ClosedRange<TimeInterval>, zero: String? = nil, _ help: String
    ) -> ServeSetting {
        duration(key, property, in: bounds, zero: zero, help, seconds: { $0.timeInterval }, value: { .seconds($0) })
    }

    static func duration(_ key: String, _ property: Property<Duration?>, in bounds: ClosedRange<TimeInterval>, _ help: String) -> ServeSetting {
        duration(key, property, in: bounds, help, seconds: { $0?.timeInterval }, value: { .seconds($0) })
    }

    static func duration(
        _ key: String, _ property: Property<TimeInterval>, in bounds: ClosedRange<TimeInterval>, _ help: String
    ) -> ServeSetting {
        duration(key, property, in: bounds, help, seconds: { $0 }, value: { $0 })
    }

    /// On or off; off unless given.
    static func toggle(_ key: String, _ property: Property<Bool>, _ help: String) -> ServeSetting {
        ServeSetting(key, .toggle, "", secret: false, help, written: { $0[keyPath: property] ? "true" : nil }) {
            reader, configuration throws(ConfigurationError) in
            if let value = try reader.toggle(key) { configuration[keyPath: property] = value }
        }
    }

    /// Repeatable text, each parsed by `parse` (the error names the flag).
    static func list<Element>(
        _ key: String, _ property: Property<[Element]>, _ placeholder: String, secret: Bool = false, _ help: String,
        parse: @escaping @Sendable (String) throws(ConfigurationError) -> Element
    ) -> ServeSetting {
        let written: @Sendable (ActionableConfiguration) -> String? = { configuration in
            let values = configuration[keyPath: property]
            guard !values.isEmpty else { return nil }
            return secret ? "\(values.count) secret" : values.map { "\($0)" }.joined(separator: ",")
        }
        return ServeSetting(key, .list, placeholder, secret: secret, help, written: written) { reader, configuration throws(ConfigurationError) in
            guard let texts = try reader.list(key, secret: secret) else { return }
            var values: [Element] = []
            for text in texts {
                do throws(ConfigurationError) {
                    values.append(try parse(text))
                } catch {
                    throw ConfigurationError("--\(key): \(error)", usage: error.isUsage)
                }
            }
            configuration[keyPath: property] = values
        }
    }
}

/// How a setting's bounds are written in its error: `between 1 and 4096`, `at least 1`,
/// `0 (no limit) or more`, `between 1 second and 1 hour`.
enum Bounds {
    static func describe(_ bounds: ClosedRange<Int>, zero: String?) -> String {
        if let zero, bounds.upperBound == .max { return "0 (\(zero)) or more" }
        let range = bounds.upperBound == .max ? "at least \(bounds.lowerBound)" : "between \(bounds.lowerBound) and \(bounds.upperBound)"
        return zero.map { "0 (\($0)) or \(range)" } ?? range
    }

    static func describe(_ bounds: ClosedRange<TimeInterval>, zero: String?) -> String {
        let range =
            bounds.upperBound == .infinity
            ? "at least \(words(bounds.lowerBound))" : "between \(words(bounds.lowerBound)) and \(words(bounds.upperBound))"
        return zero.map { "0 (\($0)) or \(range)" } ?? range
    }

    /// `1 second`, `1 hour`, `30 days`.
    static func words(_ seconds: TimeInterval) -> String {
        for (unit, size) in [("day", 86400.0), ("hour", 3600.0), ("minute", 60.0)]
        where seconds >= size && (seconds / size).rounded() == seconds / size {
            let count = Int(seconds / size)
            return "\(count) \(unit)\(count == 1 ? "" : "s")"
        }
        let count = seconds.rounded() == seconds ? "\(Int(seconds))" : "\(seconds)"
        return "\(count) second\(seconds == 1 ? "" : "s")"
    }
}
