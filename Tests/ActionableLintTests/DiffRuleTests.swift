import ActionableCore
import ActionableLint
import ActionableTestSupport
import FoundationEssentials
import Testing

/// Every compatibility rule's own catalog pairs are its tests: a triggering pair reports the rule
/// exactly at its `↓` markers (old files for removals, new files otherwise), with the rule's
/// severity; a non-triggering pair does not report it.
struct DiffRuleTests {
    /// Loads an example pair; old files are named `old/NAME`, new ones `new/NAME`.
    static func run(
        _ example: DiffExample, configuration: LintConfiguration = LintConfiguration()
    )
        -> (result: LintResult, markers: Set<ActionableCore.SourceLocation>)
    {
        let old = ExampleRunner.load(example.old, prefix: "old/")
        let new = ExampleRunner.load(example.new, prefix: "new/")
        return (CatalogDiff(configuration: configuration).diff(old: old.files, new: new.files), old.markers.union(new.markers))
    }

    @Test("triggering pairs report exactly at the markers", arguments: DiffRules.identifiers)
    func triggering(rule id: String) throws {
        let rule = try #require(DiffRules.byIdentifier[id])
        #expect(!rule.triggering.isEmpty, "every rule needs a triggering example")
        for example in rule.triggering {
            let (result, markers) = Self.run(example)
            let reported = result.diagnostics.filter { $0.rule == id }
            #expect(!markers.isEmpty, "a triggering example of \(id) has no ↓ marker")
            #expect(
                Set(reported.map(\.location)) == markers,
                "\(id): reported \(reported.map(\.description)) but markers are \(markers.sorted())")
            #expect(reported.allSatisfy { $0.severity == rule.severity })
            let loadProblems = result.diagnostics.filter { $0.rule == "syntax" || $0.rule == "schema" }
            #expect(loadProblems.isEmpty, "\(id)'s examples should be well-formed files: \(loadProblems)")
        }
    }

    @Test("non-triggering pairs do not report the rule", arguments: DiffRules.identifiers)
    func nonTriggering(rule id: String) throws {
        let rule = try #require(DiffRules.byIdentifier[id])
        for example in rule.nonTriggering {
            let (result, _) = Self.run(example)
            let reported = result.diagnostics.filter { $0.rule == id }
            #expect(reported.isEmpty, "\(id) reported \(reported.map(\.description))")
        }
    }

    @Test func identicalCatalogsHaveNoChanges() throws {
        let files = try CatalogLoader().load(paths: [CommandLineRunner.repository.appendingPathComponent("Categories").path])
        #expect(files.count >= 3)
        #expect(CatalogDiff().diff(old: files, new: files).diagnostics.isEmpty)
    }

    @Test func categoriesAreMatchedByIdentifierNotByFile() {
        let example = DiffExample(
            old: Example(files: [("a/invite.yaml", "category: invite\nactions: [{id: accept, title: Accept}]\n")]),
            new: Example(files: [("b/renamed.yaml", "category: invite\nactions: [{id: accept, title: Accept}]\n")]))
        #expect(Self.run(example).result.diagnostics.isEmpty)
    }

    @Test func theSeveritiesAreThoseSpecified() throws {
        let errors = [
            "category_removed", "action_removed", "payload_key_removed", "payload_key_required", "payload_type_changed",
            "max_length_reduced", "custom_dismiss_removed", "input_removed", "input_added",
        ]
        let warnings = [
            "title_changed", "icon_changed", "android_action_changed", "android_actions_changed", "activation_changed", "destructive_changed",
            "authentication_changed",
            "input_text_changed", "minimal_context_changed",
        ]
        let infos = [
            "category_added", "action_added", "payload_key_added", "action_retired", "category_retired", "unretired",
            "retired_removed",
        ]
        #expect(DiffRules.identifiers == errors + warnings + infos)
        for id in errors { #expect(DiffRules.byIdentifier[id]?.severity == .error, "\(id)") }
        for id in warnings { #expect(DiffRules.byIdentifier[id]?.severity == .warning, "\(id)") }
        for id in infos { #expect(DiffRules.byIdentifier[id]?.severity == .info, "\(id)") }
        #expect(Set(DiffRules.identifiers).isDisjoint(with: BuiltInRules.identifiers))
    }

    @Test func aRemovalSaysRetiringIsTheSafePathAndGuessesARename() throws {
        let example = DiffExample(
            old: "category: invite\nactions: [{id: accept, title: Accept}]\n",
            new: "category: invite\nactions: [{id: yes, title: Accept}]\n")
        let removal = try #require(Self.run(example).result.diagnostics.first { $0.rule == "action_removed" })
        #expect(removal.message.contains("retired: true"))
        #expect(removal.message.contains("renamed to \"yes\"?"))
        #expect(removal.location == ActionableCore.SourceLocation(file: "old/invite.yaml", line: 2, column: 11))
    }

    @Test func theConfigurationChangesSeveritiesAndDisablesRules() throws {
        let configuration = try LintConfiguration(
            yaml: "disabled_rules: [action_added]\nseverities: { title_changed: error, action_removed: warning }\n",
            path: ".actionable-diff.yml", rules: DiffRules.identifiers)
        let example = DiffExample(
            old: "category: invite\nactions: [{id: accept, title: Accept}, {id: maybe, title: Maybe}]\n",
            new: "category: invite\nactions: [{id: accept, title: Yes}, {id: later, title: Later}]\n")
        let result = Self.run(example, configuration: configuration).result
        #expect(result.diagnostics.map(\.rule).sorted() == ["action_removed", "title_changed"])
        #expect(result.diagnostics.first { $0.rule == "title_changed" }?.severity == .error)
        #expect(result.diagnostics.first { $0.rule == "action_removed" }?.severity == .warning)
    }

    @Test func aDiffConfigurationRefusesLintRulesAndTypos() {
        #expect(throws: ConfigurationError.self) {
            try LintConfiguration(yaml: "disabled_rules: [file_name_mismatch]\n", path: "c.yml", rules: DiffRules.identifiers)
        }
        do {
            _ = try LintConfiguration(yaml: "severities: { action_remove: warning }\n", path: "c.yml", rules: DiffRules.identifiers)
            Issue.record("a typo was accepted")
        } catch {
            #expect("\(error)".contains("did you mean \"action_removed\""))
        }
    }

    @Test func filesThatDoNotLoadAreReportedOnEitherSide() {
        let example = DiffExample(
            old: Example(files: [("invite.yaml", "category: invite\nactions: [{id: accept, title: Accept}]\n")]),
            new: Example(files: [("invite.yaml", "category: invite\nactions: [{id: accept, title: Accept\n")]))
        let result = Self.run(example).result
        #expect(result.diagnostics.contains { $0.rule == "syntax" && $0.location.file == "new/invite.yaml" })
        #expect(result.exitStatus(strict: false) == 1)
    }

    @Test func aRetiredCategoryStillReportsBreakingChangesButNotPresentation() {
        let example = DiffExample(
            old: "category: invite\nactions: [{id: accept, title: Accept}, {id: maybe, title: Maybe}]\n",
            new: "category: invite\nretired: true\nactions: [{id: accept, title: Yes}]\n")
        let rules = Self.run(example).result.diagnostics.map(\.rule).sorted()
        #expect(rules == ["action_removed", "category_retired"])
    }

    @Test func informationNeverFailsEvenUnderStrict() {
        let example = DiffExample(
            old: "category: invite\n", new: "category: invite\nactions: [{id: accept, title: Accept}]\n")
        let result = Self.run(example).result
        #expect(result.infoCount == 1)
        #expect(result.exitStatus(strict: true) == 0)
    }
}
