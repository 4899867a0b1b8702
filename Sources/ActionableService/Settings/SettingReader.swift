import ActionableCore
import Configuration
import Foundation

/// Reads a setting's value, by its key, from a `ConfigReader`, with an error that names the flag
/// and the fix when the value does not parse; `nil` when no provider holds it.
struct SettingReader {
    let reader: ConfigReader

    func text(_ key: String, secret: Bool = false) throws(ConfigurationError) -> String? {
        if let text = reader.string(forKey: ConfigKey([key]), isSecret: secret) { return text }
        try refuseOtherTypes(key, expected: "text (a JSON string)")
        return nil
    }

    /// An array (a repeated flag, a JSON array, the environment's comma-separated text), or one text.
    func list(_ key: String, secret: Bool = false) throws(ConfigurationError) -> [String]? {
        if let texts = reader.stringArray(forKey: ConfigKey([key]), isSecret: secret) { return texts }
        if let text = reader.string(forKey: ConfigKey([key]), isSecret: secret) { return [text] }
        try refuseOtherTypes(key, expected: "a list of texts (a JSON array of strings)")
        return nil
    }

    /// A whole number, written as a number (a JSON number) or as text (a flag, the environment).
    func integer(_ key: String) throws(ConfigurationError) -> Int? {
        if let number = reader.int(forKey: ConfigKey([key])) { return number }
        guard let text = reader.string(forKey: ConfigKey([key])) else {
            try refuseOtherTypes(key, expected: "a whole number")
            return nil
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError("--\(key) \(text): use a whole number", usage: true)
        }
        return number
    }

    /// Seconds, from `90s`, `30m`, `12h`, `7d` (or `0` where `zeroAllowed`).
    func duration(_ key: String, zeroAllowed: Bool) throws(ConfigurationError) -> TimeInterval? {
        guard let value = reader.string(forKey: ConfigKey([key])) ?? reader.int(forKey: ConfigKey([key])).map(String.init) else {
            try refuseOtherTypes(key, expected: "a duration as text, as in \"90s\"")
            return nil
        }
        if zeroAllowed && value == "0" { return 0 }
        guard let seconds = DurationText.seconds(value) else {
            throw ConfigurationError("--\(key) \(value): use a number and a unit, as in 90s, 30m, 12h or 30d", usage: true)
        }
        return seconds
    }

    /// On when given as a flag, or as `true`/`1` in the environment or a file.
    func toggle(_ key: String) throws(ConfigurationError) -> Bool? {
        if let value = reader.bool(forKey: ConfigKey([key])) { return value }
        guard let text = reader.string(forKey: ConfigKey([key])) else {
            try refuseOtherTypes(key, expected: "true or false")
            return nil
        }
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off", "": return false
        default: throw ConfigurationError("--\(key) \(text): use true or false", usage: true)
        }
    }

    /// Refuses a value a provider holds for `key` in a type the setting cannot take (a JSON file's
    /// `"port": true`), which the typed look-ups would otherwise pass over as if it were absent.
    private func refuseOtherTypes(_ key: String, expected: String) throws(ConfigurationError) {
        let config = ConfigKey([key])
        let found: String? =
            if reader.bool(forKey: config) != nil { "true or false" } else if reader.int(forKey: config) != nil {
                "a number"
            } else if reader.double(forKey: config) != nil { "a number" } else if reader.stringArray(forKey: config) != nil {
                "a list"
            } else if reader.intArray(forKey: config) != nil || reader.doubleArray(forKey: config) != nil {
                "a list of numbers"
            } else if reader.boolArray(forKey: config) != nil { "a list of true/false" } else { nil }
        guard let found else { return }
        throw ConfigurationError("\"\(key)\" in the --config file: \(found) is given where it takes \(expected)", usage: true)
    }
}
