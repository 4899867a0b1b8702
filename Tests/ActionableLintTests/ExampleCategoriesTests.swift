import ActionableCore
import ActionableLint
import Foundation
import Testing

/// The repository's own `Categories/` are the examples users copy: they must be clean under
/// `--strict` and cover what the README promises.
struct ExampleCategoriesTests {
    static let categoriesPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Categories").path

    @Test func exampleCategoriesAreCleanUnderStrict() throws {
        let files = try CatalogLoader().load(paths: [Self.categoriesPath])
        let result = Linter().lint(files)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        #expect(result.exitStatus(strict: true) == 0)
    }

    @Test func theExamplesIncludeInviteChatAndLoginApproval() throws {
        let files = try CatalogLoader().load(paths: [Self.categoriesPath])
        let catalog = Catalog(files.compactMap(\.category))
        let invite = try #require(catalog["invite"])
        #expect(Set(invite.actions.map(\.id)).isSuperset(of: ["accept", "decline", "maybe"]))
        #expect(invite.payload["inviteId"]?.required == true)
        let message = try #require(catalog["message"])
        #expect(message.actions.contains { $0.input != nil })
        #expect(catalog["login-approval"] != nil)
        #expect(files.contains { $0.path.hasSuffix(".json") })
    }
}

/// The rule tables of the docs (`docs/categories-lint-diff.md`) list every rule with its
/// default severity.
struct ReadmeRuleTableTests {
    @Test func everyRuleIsInTheReadmeTable() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/categories-lint-diff.md"),
            encoding: .utf8)
        for id in BuiltInRules.identifiers {
            let severity = try #require(BuiltInRules.descriptions[id]).severity.rawValue
            #expect(readme.contains("| `\(id)` | \(severity) |"), "docs/categories-lint-diff.md lacks the row for \(id)")
        }
        for rule in DiffRules.all {
            #expect(
                readme.contains("| `\(rule.identifier)` | \(rule.severity.rawValue) |"),
                "docs/categories-lint-diff.md lacks the row for \(rule.identifier)")
        }
    }
}
