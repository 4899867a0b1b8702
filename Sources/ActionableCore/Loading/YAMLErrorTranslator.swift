/// Words and positions for libYAML's errors, as ``YAMLComposer`` reports them.
enum YAMLErrorTranslator {
    /// libYAML's problem (and the context it was found in) in the words of a diagnostic.
    static func message(problem: String, context: String?) -> String {
        if problem.contains("Maximum nesting level") {
            return "nested deeper than \(LoaderLimits.nestingLimit) levels; a category file needs 4"
        }
        var text = problem
        if let context, !context.isEmpty { text += " (\(context))" }
        return "not valid YAML or JSON: " + text
    }

    /// Line and column (in Unicode scalars) of the byte at `offset`.
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
}
