import Yams

/// Turns a Yams/libYAML error into a `syntax` diagnostic at the right place.
enum YAMLErrorTranslator {
    static func diagnostic(for error: any Error, path: String, text: String) -> Diagnostic {
        func at(_ line: Int, _ column: Int, _ message: String) -> Diagnostic {
            Diagnostic(
                location: .init(file: path, line: max(line, 1), column: max(column, 1)),
                severity: .error, rule: "syntax", message: message)
        }
        guard let yamlError = error as? YamlError else { return at(1, 1, "cannot parse the file: \(error)") }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return at(mark.line, mark.column, message(problem: problem, context: context?.text))
        case .reader(let problem, let offset, _, _):
            let (line, column) = offset.map { position(ofByte: $0, in: text) } ?? (1, 1)
            return at(line, column, message(problem: problem, context: nil))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let key = duplicates.first ?? ""
            let first = context.mark
            let second = secondOccurrence(of: key, after: first, in: text) ?? (first.line, first.column)
            return at(
                second.0, second.1,
                "duplicate key \"\(key)\" (first at line \(first.line)); YAML keeps only one, so remove or rename one")
        default:
            return at(1, 1, "cannot parse the file: \(yamlError)")
        }
    }

    private static func message(problem: String, context: String?) -> String {
        if problem.contains("Maximum nesting level") {
            return "nested deeper than \(LoaderLimits.nestingLimit) levels; a category file needs 4"
        }
        if problem.contains("found another document") {
            return "a second YAML document starts here; a category file holds one category, so move it to a file of its own"
        }
        var text = problem
        if let context, !context.isEmpty { text += " (\(context))" }
        return "not valid YAML or JSON: " + text
    }

    static func position(ofByte offset: Int, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for (index, byte) in text.utf8.enumerated() {
            if index >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// Yams reports a duplicate key at its first occurrence; the mistake a person wants shown is
    /// the second. Block mappings put sibling keys in the same column on later lines; flow
    /// mappings put them later on a line. Falls back to the first occurrence when neither fits.
    static func secondOccurrence(of key: String, after first: Mark, in text: String) -> (Int, Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard first.line >= 1, first.line <= lines.count else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        func isKey(_ rest: Substring) -> Bool {
            spellings.contains { spelling in
                guard rest.hasPrefix(spelling) else { return false }
                return rest.dropFirst(spelling.count).drop(while: { $0 == " " }).first == ":"
            }
        }
        // Flow style: a later occurrence on the same line.
        let firstLine = lines[first.line - 1]
        let scalars = Array(firstLine.unicodeScalars)
        if first.column - 1 + 1 < scalars.count {
            var index = first.column - 1 + key.unicodeScalars.count
            while index < scalars.count {
                if scalars[index] == "," || scalars[index] == "{" {
                    let rest = String(String.UnicodeScalarView(scalars[(index + 1)...]))
                    let trimmed = rest.drop(while: { $0 == " " })
                    if isKey(trimmed) { return (first.line, index + 2 + (rest.count - trimmed.count)) }
                }
                index += 1
            }
        }
        // Block style: a later line with the key at the same column.
        for lineIndex in first.line..<lines.count {
            let line = Array(lines[lineIndex].unicodeScalars)
            guard line.count >= first.column else { continue }
            let indentation = line.prefix { $0 == " " || $0 == "-" }.count
            guard indentation == first.column - 1 else { continue }
            let rest = String(String.UnicodeScalarView(line[(first.column - 1)...]))
            if isKey(Substring(rest)) { return (lineIndex + 1, first.column) }
        }
        return nil
    }
}
