/// Typed access to YAML nodes that records positions and reports `schema` diagnostics instead of
/// throwing, so one pass finds every problem of a file.
struct NodeReader {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) {
        self.file = file
    }

    func location(_ node: YAMLNode) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    mutating func error(_ message: String, at node: YAMLNode, rule: String = "schema") {
        diagnostics.append(Diagnostic(location: location(node), severity: .error, rule: rule, message: message))
    }

    /// What kind of node this is, for messages.
    static func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): return ScalarValue(scalar).typeName
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        }
    }

    /// The kind of node, with a scalar's text: `a string "yes"`.
    static func describeValue(_ node: YAMLNode) -> String {
        guard case .scalar(let scalar) = node else { return describe(node) }
        let value = ScalarValue(scalar)
        if case .null = value { return "nothing" }
        return "\(value.typeName) \"\(scalar.string)\""
    }

    /// The entries of a mapping whose keys are all among `allowed`; unknown and non-string keys
    /// are reported (with a suggestion) and left out. `nil` when `node` is not a mapping.
    mutating func mapping(
        _ node: YAMLNode, named name: @autoclosure () -> String, allowed: [String]?
    ) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let mapping, _) = node else {
            error("\(name()) must be a mapping, found \(Self.describe(node))", at: node)
            return nil
        }
        var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        entries.reserveCapacity(mapping.count)
        for pair in mapping {
            let keyNode = pair.key
            let value = pair.value
            guard case .scalar(let scalar) = keyNode else {
                error("keys in \(name()) must be strings, found \(Self.describe(keyNode))", at: keyNode)
                continue
            }
            let key = scalar.string
            if let allowed, !allowed.contains(key) {
                let hint = Suggestion.didYouMean(key, in: allowed)
                let known = hint.isEmpty ? "; known keys: \(allowed.joined(separator: ", "))" : hint
                error("unknown key \"\(key)\" in \(name())\(known)", at: keyNode)
                continue
            }
            entries.append((key, keyNode, value))
        }
        return entries
    }

    mutating func string(_ node: YAMLNode, name: @autoclosure () -> String) -> String? {
        guard case .scalar(let scalar) = node else {
            error("\(name()) must be a string, found \(Self.describe(node))", at: node)
            return nil
        }
        let value = ScalarValue(scalar)
        guard case .string(let text) = value else {
            error("\(name()) must be a string, found \(value.typeName) (quote it to make it a string)", at: node)
            return nil
        }
        return text
    }

    mutating func bool(_ node: YAMLNode, name: @autoclosure () -> String) -> Bool? {
        if case .scalar(let scalar) = node, case .bool(let value) = ScalarValue(scalar) { return value }
        error("\(name()) must be true or false, found \(Self.describeValue(node))", at: node)
        return nil
    }

    mutating func integer(_ node: YAMLNode, name: @autoclosure () -> String, range: ClosedRange<Int>) -> Int? {
        guard case .scalar(let scalar) = node, case .int(let value) = ScalarValue(scalar) else {
            error("\(name()) must be an integer, found \(Self.describeValue(node))", at: node)
            return nil
        }
        guard range.contains(value) else {
            error("\(name()) must be between \(range.lowerBound) and \(range.upperBound), found \(value)", at: node)
            return nil
        }
        return value
    }

    /// A string that must be one of `choices`.
    mutating func choice(_ node: YAMLNode, name: @autoclosure () -> String, choices: [String]) -> String? {
        guard let text = string(node, name: name()) else { return nil }
        guard choices.contains(text) else {
            let hint = Suggestion.didYouMean(text, in: choices)
            error("\(name()) must be one of \(choices.joined(separator: ", ")), found \"\(text)\"\(hint)", at: node)
            return nil
        }
        return text
    }

    mutating func stringList(_ node: YAMLNode, name: @autoclosure () -> String) -> [(String, YAMLNode)]? {
        guard case .sequence(let sequence, _) = node else {
            error("\(name()) must be a sequence, found \(Self.describe(node))", at: node)
            return nil
        }
        var values: [(String, YAMLNode)] = []
        for element in sequence {
            if let text = string(element, name: "each entry of \(name())") { values.append((text, element)) }
        }
        return values
    }

    /// A string a person reads: plain, or a map locale -> string.
    mutating func localized(_ node: YAMLNode, name: @autoclosure () -> String) -> LocalizedString? {
        if case .mapping = node {
            guard let entries = mapping(node, named: name(), allowed: nil) else { return nil }
            guard !entries.isEmpty else {
                error("\(name()) has no translations; give a string or at least one locale", at: node)
                return nil
            }
            var localizations: [LocalizedString.Localization] = []
            for entry in entries {
                guard Self.isLocale(entry.key) else {
                    error("\"\(entry.key)\" in \(name()) is not a locale identifier such as en or zh-Hans", at: entry.keyNode)
                    continue
                }
                if let text = string(entry.value, name: "\(name()) in \(entry.key)") {
                    localizations.append(.init(locale: entry.key, value: text))
                }
            }
            return localizations.isEmpty ? nil : .localized(localizations)
        }
        guard case .scalar = node else {
            error("\(name()) must be a string or a map of locale to string, found \(Self.describe(node))", at: node)
            return nil
        }
        return string(node, name: name()).map(LocalizedString.plain)
    }

    /// `en`, `pt-BR`, `zh-Hans`, `zh_Hant_TW`: a 2–3 letter language, then subtags of 1–8 letters
    /// and digits, separated by `-` or `_`. Checked byte by byte: this runs for every translation.
    static func isLocale(_ text: String) -> Bool {
        var subtagLength = 0
        var isFirstSubtag = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                subtagLength += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !isFirstSubtag:
                subtagLength += 1
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                guard isFirstSubtag ? (2...3).contains(subtagLength) : (1...8).contains(subtagLength) else { return false }
                isFirstSubtag = false
                subtagLength = 0
            default:
                return false
            }
        }
        return isFirstSubtag ? (2...3).contains(subtagLength) : (1...8).contains(subtagLength)
    }
}
