import ActionableCore
import ActionableLint
import Testing

struct LintConfigurationTests {
    let warningExample = Example(files: [("invitation.yaml", "category: invite\noptions: [allowAnnouncement]\n")])

    @Test func disabledRulesDoNotReport() throws {
        let configuration = try LintConfiguration(yaml: "disabled_rules: [file_name_mismatch]\n", path: ".actionable-lint.yml")
        let rules = ExampleRunner.run(warningExample, configuration: configuration).result.diagnostics.map(\.rule)
        #expect(rules == ["deprecated_option"])
    }

    @Test func severitiesCanBeRaisedAndLowered() throws {
        let configuration = try LintConfiguration(
            yaml: "severities:\n  deprecated_option: error\n  file_name_mismatch: warning\n", path: "c.yml")
        let result = ExampleRunner.run(warningExample, configuration: configuration).result
        #expect(result.diagnostics.first { $0.rule == "deprecated_option" }?.severity == .error)
        #expect(result.exitStatus(strict: false) == 1)
        let lowered = try LintConfiguration(yaml: "severities: { duplicate_action: warning }\n", path: "c.yml")
        let duplicate = ExampleRunner.run(
            Example("category: d\nactions: [{id: a, title: A}, {id: a, title: B}]\n"),
            configuration: lowered
        ).result
        #expect(duplicate.errorCount == 0)
        #expect(duplicate.exitStatus(strict: false) == 0)
        #expect(duplicate.exitStatus(strict: true) == 1)
    }

    @Test(arguments: [
        ("disabled_rules: [file_name_mismatc]\n", "c.yml:1:18: unknown rule \"file_name_mismatc\" (did you mean \"file_name_mismatch\"?)"),
        ("disabled_rule: [a]\n", "c.yml:1:1: unknown key \"disabled_rule\" (did you mean \"disabled_rules\"?)"),
        ("severities: { schema: fatal }\n", "c.yml:1:23: severity must be error, warning or info"),
        (
            "disabled_rules: [syntax]\n",
            "c.yml:1:18: the syntax rule cannot be disabled or downgraded: a file that cannot be parsed cannot be checked"
        ),
        ("disabled_rules: file_name_mismatch\n", "c.yml:1:17: disabled_rules must be a list of rule ids"),
        ("- a\n", "c.yml: expected a mapping with disabled_rules and severities"),
    ])
    func badConfigurationsAreRefusedWithThePlace(yaml: String, message: String) {
        #expect {
            try LintConfiguration(yaml: yaml, path: "c.yml")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test func anEmptyConfigurationChangesNothing() throws {
        #expect(try LintConfiguration(yaml: "", path: "c.yml") == LintConfiguration())
    }
}
