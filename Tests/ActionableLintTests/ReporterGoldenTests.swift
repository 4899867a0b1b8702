import ActionableCore
import ActionableLint
import Foundation
import Testing

/// Each reporter's output for one fixed lint result, compared with a reviewed golden file.
/// Regenerate after an intended change with `ACTIONABLE_UPDATE_GOLDEN=1 swift test`, then review the diff.
struct ReporterGoldenTests {
    /// Errors and warnings across three files, with characters that need escaping in every format.
    static func fixtureResult() -> LintResult {
        let files: [(String, String)] = [
            (
                "Categories/invite.yaml",
                """
                category: invite
                actions:
                  - id: accept
                    title: Accept
                  - id: accept
                    title: "Say <yes> & \\"go\\""
                    destructive: true
                contexts:
                  default: [accept, acept]
                """
            ),
            ("Categories/sub dir/friend,request.yaml", "category: friend\noptions: [allowAnnouncement]\n"),
            ("Categories/clean.yaml", "category: clean\n"),
        ]
        let loader = CatalogLoader()
        return Linter().lint(files.map { loader.loadFile(path: $0.0, contents: Array($0.1.utf8)) })
    }

    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    @Test(arguments: Reporter.allCases)
    func reportMatchesGolden(reporter: Reporter) throws {
        let output = reporter.report(Self.fixtureResult())
        let url = Self.goldenDirectory.appendingPathComponent("report.\(reporter.rawValue)")
        if ProcessInfo.processInfo.environment["ACTIONABLE_UPDATE_GOLDEN"] == "1" {
            try output.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(output == golden)
    }

    @Test func theFixtureCoversErrorsAndWarnings() {
        let result = Self.fixtureResult()
        #expect(result.errorCount == 2)  // duplicate_action, context_unknown_action
        #expect(result.warningCount >= 3)  // destructive…, deprecated_option, file_name_mismatch
        #expect(result.fileCount == 3)
    }

    @Test func jsonReportHasTheSpecifiedShape() throws {
        let output = Reporter.json.report(Self.fixtureResult())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(Set(diagnostics[0].keys) == ["file", "line", "column", "severity", "rule", "message"])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["files": 3, "errors": 2, "warnings": Self.fixtureResult().warningCount, "infos": 0])
    }

    @Test func githubCommandsEscapePropertiesAndData() {
        let result = LintResult(
            diagnostics: [
                Diagnostic(
                    location: SourceLocation(file: "a,b:c.yaml", line: 2, column: 3), severity: .warning,
                    rule: "r", message: "50% done\nnext line")
            ], files: ["a,b:c.yaml"])
        #expect(
            Reporter.githubActionsLogging.report(result)
                == "::warning file=a%2Cb%3Ac.yaml,line=2,col=3::50%25 done%0Anext line (r)\n")
    }

    @Test func xcodeLinesHaveTheSpecifiedForm() {
        let lines = Reporter.xcode.report(Self.fixtureResult()).split(separator: "\n")
        #expect(
            lines.contains(
                "Categories/invite.yaml:9:21: error: action \"acept\" is not declared in category \"invite\" (did you mean \"accept\"?) (context_unknown_action)"
            ))
    }

    @Test func anEmptyResultStillGivesWellFormedReports() {
        let result = LintResult(diagnostics: [], files: [])
        #expect(Reporter.xcode.report(result) == "")
        #expect(Reporter.githubActionsLogging.report(result) == "")
        #expect(Reporter.json.report(result).contains("\"errors\": 0"))
        #expect(Reporter.junit.report(result).contains("tests=\"0\""))
    }
}
