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
        ("- a\n", "c.yml: expected a mapping with platforms, disabled_rules and severities"),
        ("platforms: [ios, andriod]\n", "c.yml:1:18: unknown platform \"andriod\" (platforms are ios, android) (did you mean \"android\"?)"),
        ("platforms: ios\n", "c.yml:1:12: platforms must be a list of ios, android, e.g. [ios, android]"),
        ("platforms: []\n", "c.yml:1:12: platforms must be a list of ios, android, e.g. [ios, android]"),
    ])
    func badConfigurationsAreRefusedWithThePlace(yaml: String, message: String) {
        #expect {
            try LintConfiguration(yaml: yaml, path: "c.yml")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    /// Four actions: iOS shows them all (default context), Android three.
    let fourActions = "category: invite\nactions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}, {id: d, title: D}]\n"

    @Test func anIOSOnlyCatalogWithFourActionsIsCleanUnderStrict() throws {
        let result = ExampleRunner.run(Example(files: [("invite.yaml", fourActions)])).result
        #expect(result.diagnostics.isEmpty)
        #expect(result.exitStatus(strict: true) == 0)
        let named = try LintConfiguration(yaml: "platforms: [ios]\n", path: "c.yml")
        #expect(ExampleRunner.run(Example(files: [("invite.yaml", fourActions)]), configuration: named).result.exitStatus(strict: true) == 0)
    }

    @Test func targetingAndroidWarnsOfTheFourthAction() throws {
        let configuration = try LintConfiguration(yaml: "platforms: [ios, android]\n", path: "c.yml")
        #expect(configuration.platforms == [.ios, .android])
        let result = ExampleRunner.run(Example(files: [("invite.yaml", fourActions)]), configuration: configuration).result
        #expect(result.diagnostics.map(\.rule) == ["android_too_many_actions"])
        #expect(result.exitStatus(strict: true) == 1)
    }

    /// Without `platforms:`, a category with android: keys makes the catalog target Android, and
    /// the rule then runs over every file of it; naming `[ios]` turns it off again.
    @Test func androidKeysAnywhereTargetAndroid() throws {
        let other = "category: ping\nactions: [{id: pong, title: Pong, android: {icon: ic_pong}}]\n"
        let example = Example(files: [("invite.yaml", fourActions), ("ping.yaml", other)])
        #expect(ExampleRunner.run(example).result.diagnostics.map(\.rule) == ["android_too_many_actions"])
        let iosOnly = try LintConfiguration(yaml: "platforms: [ios]\n", path: "c.yml")
        #expect(ExampleRunner.run(example, configuration: iosOnly).result.diagnostics.isEmpty)
    }

    @Test func anEmptyConfigurationChangesNothing() throws {
        #expect(try LintConfiguration(yaml: "", path: "c.yml") == LintConfiguration())
    }
}
