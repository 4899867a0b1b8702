import ActionableCore

/// JUnit XML: one `<testcase>` per checked file (and per other file a diagnostic names, such as
/// the old file of a removal `actionable diff` reports); errors become `<failure>`s,
/// warnings and information are listed in `<system-out>` (JUnit has no warning element).
enum JUnitReporter {
    static func report(_ result: LintResult, tool: ReportTool) -> String {
        let name = XMLText.escaped(tool.name)
        let className = XMLText.escaped(tool.name.replacing(" ", with: "."))
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in result.diagnostics { byFile[diagnostic.location.file, default: []].append(diagnostic) }
        let files = result.files + byFile.keys.filter { !result.files.contains($0) }.sorted()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(result.errorCount)\">\n"
        xml +=
            "  <testsuite name=\"\(name)\" tests=\"\(files.count)\" failures=\"\(result.errorCount)\" "
            + "errors=\"0\" skipped=\"0\">\n"
        for file in files {
            let diagnostics = byFile[file] ?? []
            xml += "    <testcase classname=\"\(className)\" name=\"\(XMLText.escaped(file))\">\n"
            for diagnostic in diagnostics where diagnostic.severity == .error {
                xml +=
                    "      <failure type=\"\(XMLText.escaped(diagnostic.rule))\" message=\"\(XMLText.escaped(diagnostic.message))\">"
                    + XMLText.escaped(diagnostic.description) + "</failure>\n"
            }
            let warnings = diagnostics.filter { $0.severity != .error }
            if !warnings.isEmpty {
                xml +=
                    "      <system-out>" + warnings.map { XMLText.escaped($0.description) }.joined(separator: "\n")
                    + "</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

}
