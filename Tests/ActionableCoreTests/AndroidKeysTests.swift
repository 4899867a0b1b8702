import ActionableCore
import Testing

/// The per-action `android:` keys: a drawable icon and a semantic action, read, written to the
/// catalog's JSON, and refused with a message naming the fix when malformed.
struct AndroidKeysTests {
    func load(_ actions: String) -> CategoryFile {
        CatalogLoader().loadFile(path: "c.yaml", contents: Array("category: chat\nactions:\n\(actions)".utf8))
    }

    @Test func iconAndSemanticActionAreReadAndWritten() throws {
        let file = load(
            """
              - id: reply
                title: Reply
                input: {}
                android: { icon: ic_reply, semanticAction: reply }
              - id: read
                title: Mark read
                android: { semanticAction: markAsRead }
              - id: open
                title: Open
            """)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let actions = try #require(file.category?.actions)
        #expect(actions[0].android == AndroidActionOptions(icon: "ic_reply", semanticAction: .reply))
        #expect(actions[1].android == AndroidActionOptions(semanticAction: .markAsRead))
        #expect(actions[2].android == nil)
        #expect(actions[0].jsonValue["android"] == .object([("icon", .string("ic_reply")), ("semanticAction", .string("reply"))]))
        #expect(actions[2].jsonValue["android"] == nil)
    }

    @Test func malformedKeysAreRefusedNamingTheFix() {
        let diagnostics = load(
            """
              - id: a
                title: A
                android: { icon: Reply-Icon, semanticAction: markRead, color: red }
            """
        ).diagnostics.map(\.message)
        #expect(diagnostics.contains { $0.contains("android icon must name a drawable resource") && $0.contains("Reply-Icon") })
        #expect(diagnostics.contains { $0.contains("android semanticAction must be one of") && $0.contains("markAsRead") })
        #expect(diagnostics.contains { $0.contains("color") })
    }

    @Test func androidShowsTheChosenThreeOrTheFirstThreeOfTheDefaultContext() throws {
        let four =
            "  - { id: a, title: A }\n  - { id: b, title: B }\n  - { id: c, title: C, retired: true }\n  - { id: d, title: D }\n  - { id: e, title: E }\n"
        let derived = try #require(load(four + "contexts: { default: [e, a, b, d] }\n").category)
        #expect(derived.androidActions.map(\.id) == ["e", "a", "b"])  // the default context's order; retired c never
        let chosen = try #require(load(four + "android: { actions: [d, a] }\n").category)
        #expect(chosen.androidActionIDs == ["d", "a"] && chosen.androidActions.map(\.id) == ["d", "a"])
        #expect(chosen.jsonValue["android"] == .object([("actions", .array([.string("d"), .string("a")]))]))
        let malformed = load(four + "android: { actions: a, buttons: [a] }\n").diagnostics.map(\.message)
        #expect(malformed.contains { $0.contains("buttons") } && malformed.contains { $0.contains("android.actions must be a sequence") })
    }
}
