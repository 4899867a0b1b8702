import ActionableCore
import ActionableLint
import Testing

/// Every rule's own examples are its tests: triggering examples report exactly at their `↓`
/// markers, non-triggering examples report nothing for the rule.
struct RuleExampleTests {
    static let rules: [String] = BuiltInRules.identifiers

    @Test("triggering examples report exactly at the markers", arguments: rules)
    func triggering(rule id: String) throws {
        let description = try #require(BuiltInRules.descriptions[id])
        #expect(!description.triggering.isEmpty, "every rule needs a triggering example")
        for example in description.triggering {
            let outcome = ExampleRunner.run(example)
            let reported = outcome.result.diagnostics.filter { $0.rule == id }
            #expect(!outcome.markers.isEmpty, "triggering example of \(id) has no ↓ marker")
            #expect(
                Set(reported.map(\.location)) == outcome.markers,
                "\(id): reported \(reported.map(\.description)) but markers are \(outcome.markers.sorted())")
            #expect(reported.allSatisfy { $0.severity == description.severity })
            if id != "syntax" && id != "schema" {
                let loadProblems = outcome.result.diagnostics.filter { $0.rule == "syntax" || $0.rule == "schema" }
                #expect(loadProblems.isEmpty, "\(id)'s example should be a well-formed file: \(loadProblems)")
            }
        }
    }

    @Test("non-triggering examples report nothing for the rule", arguments: rules)
    func nonTriggering(rule id: String) throws {
        let description = try #require(BuiltInRules.descriptions[id])
        #expect(!description.nonTriggering.isEmpty, "every rule needs a non-triggering example")
        for example in description.nonTriggering {
            let outcome = ExampleRunner.run(example)
            #expect(outcome.markers.isEmpty)
            let reported = outcome.result.diagnostics.filter { $0.rule == id }
            #expect(reported.isEmpty, "\(id) reported \(reported.map(\.description))")
            let loadProblems = outcome.result.diagnostics.filter { $0.rule == "syntax" || $0.rule == "schema" }
            #expect(loadProblems.isEmpty, "\(id)'s example should be a well-formed file: \(loadProblems)")
        }
    }

    @Test func ruleIdentifiersAreUniqueAndSnakeCase() {
        let ids = BuiltInRules.identifiers
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }, "\(id) is not snake_case")
            #expect(!id.hasPrefix("_") && !id.hasSuffix("_") && !id.contains("__"))
        }
    }

    @Test func everySpecifiedRuleExistsWithItsDefaultSeverity() throws {
        let specified: [(String, Severity)] = [
            ("syntax", .error), ("schema", .error), ("identifier_format", .error), ("duplicate_category", .error),
            ("duplicate_action", .error), ("reserved_identifier", .error), ("too_many_actions", .error),
            ("context_too_many_actions", .error), ("context_unknown_action", .error), ("empty_title", .error),
            ("reserved_payload_key", .error), ("minimal_not_prefix", .warning),
            ("destructive_without_authentication", .warning), ("deprecated_option", .warning),
            ("action_id_reused", .warning), ("missing_translation", .warning), ("file_name_mismatch", .warning),
            ("retired_in_context", .error),
        ]
        for (id, severity) in specified {
            let description = try #require(BuiltInRules.descriptions[id], "missing rule \(id)")
            #expect(description.severity == severity, "\(id)")
        }
    }
}
