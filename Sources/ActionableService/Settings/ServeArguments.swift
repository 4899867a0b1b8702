import ActionableCore
package import Configuration
import Foundation

extension ServeSetting {
    /// The settings given on the command line, as the first provider of `actionable serve`'s
    /// configuration: `--key VALUE`, `--key=VALUE`, a toggle's `--key` alone; a list's flag
    /// repeated. Every flag is one of ``all``: a setting given again takes
    /// its last value. An unknown flag, a value missing or a word that is no flag's value is
    /// refused, naming it.
    package static func commandLine(_ arguments: [String]) throws(ConfigurationError) -> InMemoryProvider {
        let known = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
        var given: [String: [String]] = [:]
        var order: [ServeSetting] = []
        var index = arguments.startIndex
        var bareToggle: ServeSetting?
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if let toggle = bareToggle {
                    throw ConfigurationError(
                        "\(argument): \(toggle.flag) is on when given alone; to set it, write \(toggle.flag)=\(argument)", usage: true)
                }
                throw ConfigurationError("\(argument): serve takes only --flags (and their values); see actionable serve --help", usage: true)
            }
            bareToggle = nil
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let setting = known[name] else {
                let hint = Suggestion.closest(to: name, in: all.map(\.key)).map { "; did you mean --\($0)?" } ?? "; see actionable serve --help"
                throw ConfigurationError("--\(name) is not a setting of serve\(hint)", usage: true)
            }
            if let inline, inline.trimmingCharacters(in: .whitespaces).isEmpty {
                let example = setting.kind == .toggle ? "true (or false)" : setting.placeholder
                throw ConfigurationError("\(setting.flag)= has no value: write \(setting.flag)=\(example), or leave the flag out", usage: true)
            }
            let value: String
            if setting.kind == .toggle {
                value = inline ?? "true"
                if inline == nil { bareToggle = setting }
            } else if let inline {
                value = inline
            } else {
                guard index < arguments.endIndex else {
                    throw ConfigurationError("\(setting.flag) needs a value: \(setting)", usage: true)
                }
                guard !arguments[index].hasPrefix("--") else {
                    throw ConfigurationError(
                        "\(setting.flag) needs a value, and \(arguments[index]) is taken for the next flag; a value that starts with -- is "
                            + "written \(setting.flag)=VALUE", usage: true)
                }
                value = arguments[index]
                index += 1
            }
            if given[name] == nil { order.append(setting) }
            // A list's flag adds to it; another setting's given again wins, as the last word.
            given[name] = setting.kind == .list ? (given[name] ?? []) + [value] : [value]
        }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for setting in order {
            let texts = given[setting.key] ?? []
            let content: ConfigContent = setting.kind == .list ? .stringArray(texts) : .string(texts[0])
            values[AbsoluteConfigKey([setting.key])] = ConfigValue(content, isSecret: setting.isSecret)
        }
        return InMemoryProvider(name: "flags", values: values)
    }

    /// The settings as `actionable serve --help` lists them: each flag, then its help and its
    /// default indented below it, wrapped within 80 columns (so the help's own wrapping keeps the
    /// indent).
    package static var commandLineList: String {
        all.map { setting in
            let name = setting.placeholder.isEmpty ? setting.flag : "\(setting.flag) <\(setting.placeholder)>"
            return (["  \(name)"] + wrap(setting.commandLineHelp, width: 78, indent: 8)).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` columns (a longer word stands alone), each indented.
    static func wrap(_ text: String, width: Int, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(margin + line) }
        return lines
    }
}
