import ActionableCore

/// `{"diagnostics":[{"file","line","column","severity","rule","message"}],"summary":{"files","errors","warnings","infos"}}`.
enum JSONReporter {
    static func report(_ result: LintResult) -> String {
        let diagnostics = result.diagnostics.map { diagnostic -> JSONValue in
            .object([
                ("file", .string(diagnostic.location.file)),
                ("line", .int(diagnostic.location.line)),
                ("column", .int(diagnostic.location.column)),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("rule", .string(diagnostic.rule)),
                ("message", .string(diagnostic.message)),
            ])
        }
        let value = JSONValue.object([
            ("diagnostics", .array(diagnostics)),
            (
                "summary",
                .object([
                    ("files", .int(result.fileCount)),
                    ("errors", .int(result.errorCount)),
                    ("warnings", .int(result.warningCount)),
                    ("infos", .int(result.infoCount)),
                ])
            ),
        ])
        return value.prettySerialized() + "\n"
    }
}
