import ActionableCore
import ActionableLint
import Foundation
import Testing

/// `actionable diff`'s report in every format for one fixed pair of catalogs, compared with a
/// reviewed golden file. Regenerate after an intended change with
/// `ACTIONABLE_UPDATE_GOLDEN=1 swift test`, then review the diff.
struct DiffGoldenTests {
    /// Breaking changes (one a removal, reported in the old file), warnings and safe changes across
    /// three files, with a path and a title that need escaping in every format.
    static func fixtureResult() -> LintResult {
        let old: [(String, String)] = [
            (
                "old/invite.yaml",
                """
                category: invite
                options: [customDismissAction]
                payload: { inviteId: string }
                actions:
                  - { id: accept, title: "Say <yes> & \\"go\\"" }
                  - { id: maybe, title: Maybe }
                  - { id: comment, title: Comment, input: { maxLength: 500 } }
                """
            ),
            ("old/sub dir/friend,request.yaml", "category: friend\nactions: [{id: add, title: Add}, {id: block, title: Block}]\n"),
        ]
        let new: [(String, String)] = [
            (
                "new/invite.yaml",
                """
                category: invite
                options: [customDismissAction]
                payload: { inviteId: string, eventId: { type: string, required: true } }
                actions:
                  - { id: accept, title: "Say <yes> & go" }
                  - { id: maybe, title: Maybe, retired: true }
                  - { id: comment, title: Comment, input: { maxLength: 140 } }
                """
            ),
            ("new/sub dir/friend,request.yaml", "category: friend\nactions: [{id: add, title: Add}]\n"),
            ("new/news.yaml", "category: news\n"),
        ]
        let loader = CatalogLoader()
        return CatalogDiff().diff(
            old: old.map { loader.loadFile(path: $0.0, contents: Array($0.1.utf8)) },
            new: new.map { loader.loadFile(path: $0.0, contents: Array($0.1.utf8)) })
    }

    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden")

    @Test(arguments: Reporter.allCases)
    func reportMatchesGolden(reporter: Reporter) throws {
        let output = reporter.report(Self.fixtureResult(), tool: DiffRules.tool)
        let url = Self.goldenDirectory.appendingPathComponent("diff.\(reporter.rawValue)")
        if ProcessInfo.processInfo.environment["ACTIONABLE_UPDATE_GOLDEN"] == "1" {
            try output.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(output == golden)
    }

    @Test func theFixtureCoversEverySeverity() {
        let result = Self.fixtureResult()
        #expect(
            result.diagnostics.map(\.rule).sorted() == [
                "action_removed", "action_retired", "category_added", "max_length_reduced", "minimal_context_changed", "payload_key_required",
                "title_changed",
            ])
        #expect(result.errorCount == 3)
        #expect(result.warningCount == 2)  // title_changed; comment moved into minimal as maybe retired
        #expect(result.infoCount == 2)
        #expect(result.fileCount == 3)
    }

    @Test func informationHasEachFormatsOwnWord() {
        let result = Self.fixtureResult()
        #expect(Reporter.xcode.report(result).contains("new/news.yaml:1:11: note: category \"news\" was added"))
        #expect(Reporter.githubActionsLogging.report(result).contains("::notice file=new/news.yaml,line=1,col=11::"))
        #expect(Reporter.sarif.report(result, tool: DiffRules.tool).contains("\"level\": \"note\""))
        #expect(Reporter.junit.report(result, tool: DiffRules.tool).contains("<testsuites name=\"actionable diff\""))
    }
}
