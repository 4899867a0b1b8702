import ActionableCore
import Testing

struct DecodingTests {
    func load(_ text: String, path: String = "c.yaml") -> CategoryFile {
        CatalogLoader().loadFile(path: path, contents: Array(text.utf8))
    }

    @Test func theSpecificationsInviteExampleDecodesWithEveryField() throws {
        let file = load(
            """
            version: 1
            category: invite
            description: Someone invited the user to an event.
            options: [customDismissAction]
            hiddenPreviewsBodyPlaceholder: "%u invitations"
            summaryFormat: "%u more invitations"
            intents: []
            payload:
              inviteId: { type: string, required: true, maxLength: 64 }
              eventName: string
            actions:
              - id: accept
                title: Accept
                activation: background
                authenticationRequired: true
              - id: decline
                title: { en: Decline, zh-Hans: 拒绝 }
                destructive: true
                authenticationRequired: true
              - id: comment
                title: Comment
                icon: { system: text.bubble }
                input: { button: Send, placeholder: Add a note, maxLength: 500 }
            contexts:
              default: [accept, decline, comment]
              minimal: [accept, decline]
            """)
        #expect(file.diagnostics.isEmpty)
        let category = try #require(file.category)
        #expect(category.id == "invite")
        #expect(category.options == [.customDismissAction])
        #expect(category.hiddenPreviewsBodyPlaceholder == .plain("%u invitations"))
        #expect(
            category.payload.fields == [
                PayloadField(key: "inviteId", type: .string, required: true, maxLength: 64),
                PayloadField(key: "eventName", type: .string),
            ])
        #expect(category.actions.map(\.id) == ["accept", "decline", "comment"])
        #expect(category.actions[0].options == [.authenticationRequired])
        #expect(category.actions[1].title == .localized([.init(locale: "en", value: "Decline"), .init(locale: "zh-Hans", value: "拒绝")]))
        #expect(category.actions[1].title.developmentValue == "Decline")
        #expect(category.actions[1].options == [.destructive, .authenticationRequired])
        #expect(category.actions[2].icon == .system("text.bubble"))
        #expect(category.actions[2].input == TextInput(button: "Send", placeholder: "Add a note", maxLength: 500))
        #expect(category.contexts == Contexts(default: ["accept", "decline", "comment"], minimal: ["accept", "decline"]))
    }

    @Test func withoutContextsDefaultIsTheFirstFourAndMinimalTheFirstTwo() throws {
        let actions = (1...6).map { "  - { id: a\($0), title: A\($0) }\n" }.joined()
        let category = try #require(load("category: c\nactions:\n" + actions).category)
        #expect(category.contexts.default == ["a1", "a2", "a3", "a4"])
        #expect(category.contexts.minimal == ["a1", "a2"])
    }

    @Test func withOnlyADefaultContextMinimalIsItsFirstTwo() throws {
        let text =
            "category: c\nactions: [{id: a, title: A}, {id: b, title: B}, {id: c, title: C}]\n"
            + "contexts: { default: [c, b, a] }\n"
        let category = try #require(load(text).category)
        #expect(category.contexts == Contexts(default: ["c", "b", "a"], minimal: ["c", "b"]))
    }

    @Test func textInputMaxLengthDefaultsTo1000() throws {
        let category = try #require(load("category: c\nactions:\n  - { id: r, title: Reply, input: {} }\n").category)
        #expect(category.actions[0].input?.maxLength == 1000)
        #expect(category.actions[0].activation == .background)
        #expect(category.actions[0].destructive == false)
    }

    @Test func positionsAreKeptForEveryDecodedNode() throws {
        let file = load("category: c\nactions:\n  - id: accept\n    title: { en: Accept, de: Annehmen }\npayload:\n  k: string\n")
        let map = file.sourceMap
        #expect(map.location(of: "/category") == SourceLocation(file: "c.yaml", line: 1, column: 11))
        #expect(map.location(of: "/actions/0") == SourceLocation(file: "c.yaml", line: 3, column: 5))
        #expect(map.location(of: "/actions/0/id") == SourceLocation(file: "c.yaml", line: 3, column: 9))
        #expect(map.location(of: "/actions/0/title/de") == SourceLocation(file: "c.yaml", line: 4, column: 30))
        #expect(map.keyLocation(of: "/payload/k") == SourceLocation(file: "c.yaml", line: 6, column: 3))
        // A pointer the file lacks falls back to its nearest ancestor.
        #expect(map.location(of: "/actions/0/icon") == map.location(of: "/actions/0"))
    }

    @Test func unknownKeysAreErrorsWithASuggestion() {
        let file = load("category: c\nactions:\n  - id: a\n    title: A\n    destructiv: true\n")
        #expect(file.diagnostics.count == 1)
        #expect(file.diagnostics[0].rule == "schema")
        #expect(file.diagnostics[0].location == SourceLocation(file: "c.yaml", line: 5, column: 5))
        #expect(file.diagnostics[0].message == "unknown key \"destructiv\" in an action (did you mean \"destructive\"?)")
    }

    @Test func anUnknownKeyFarFromAnyKnownOneListsTheKnownKeys() {
        let file = load("category: c\nzebra: 1\n")
        #expect(file.diagnostics.first?.message.contains("known keys: version, category") == true)
    }

    @Test(arguments: [
        ("category: c\nactions:\n  - { id: a, title: A, destructive: yes }\n", "destructive must be true or false, found a string \"yes\""),
        ("category: c\nactions:\n  - { id: a, title: 42 }\n", "title must be a string, found an integer (quote it to make it a string)"),
        ("category: c\nactions:\n  - { id: a, title: true }\n", "title must be a string, found a boolean (quote it to make it a string)"),
        ("category: c\nactions:\n  - { id: a, title: ~ }\n", "title must be a string, found null (quote it to make it a string)"),
        ("category: 12\n", "category must be a string, found an integer (quote it to make it a string)"),
        ("version: 2\ncategory: c\n", "version must be 1, the only version of the format; found \"2\""),
        ("category: c\npayload: { n: { type: integer, maxLength: 3 } }\n", "maxLength applies only to strings, but \"n\" is integer"),
        ("category: c\npayload: { n: { required: true } }\n", "payload key \"n\" needs a type (string, integer, number, boolean, object, array)"),
        (
            "category: c\npayload: { n: strng }\n",
            "the type of payload key \"n\" must be one of string, integer, number, boolean, object, array, found \"strng\" (did you mean \"string\"?)"
        ),
        ("category: c\nactions:\n  - { id: a, title: A, input: { maxLength: 0 } }\n", "maxLength must be between 1 and 2147483647, found 0"),
        (
            "category: c\nactions:\n  - { id: a, title: A, icon: { system: a, template: b } }\n",
            "icon needs exactly one of system (an SF Symbol name) or template (an image name)"
        ),
        ("category: c\nactions:\n  - { id: a, title: { english: A } }\n", "\"english\" in title is not a locale identifier such as en or zh-Hans"),
        ("category: c\nactions:\n  - { id: a, title: {} }\n", "title has no translations; give a string or at least one locale"),
        (
            "category: c\noptions: [allowInCarplay]\n",
            "unknown category option \"allowInCarplay\" (did you mean \"allowInCarPlay\"?); options are customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle, allowAnnouncement"
        ),
        ("category: c\nactions: { id: a }\n", "actions must be a sequence, found a mapping"),
        ("description: d\n", "missing required key \"category\" (the value the backend puts in aps.category)"),
    ])
    func schemaErrorsSayWhatIsWrongAndTheFix(text: String, message: String) {
        let file = load(text)
        #expect(file.diagnostics.map(\.message) == [message])
        #expect(file.diagnostics.allSatisfy { $0.rule == "schema" && $0.severity == .error })
    }

    @Test func quotedScalarsAreAlwaysStrings() throws {
        let category = try #require(load("category: \"12\"\nactions:\n  - { id: 'true', title: \"42\" }\n").category)
        #expect(category.id == "12")
        #expect(category.actions[0].id == "true")
        #expect(category.actions[0].title == .plain("42"))
    }

    @Test func yesAndNoAreStringsAsInYAML12() throws {
        let category = try #require(load("category: c\nactions:\n  - { id: yes, title: No }\n").category)
        #expect(category.actions[0].id == "yes")
        #expect(category.actions[0].title == .plain("No"))
    }

    @Test func jsonFilesAreReadAsYAML() throws {
        let file = load("{\"category\": \"c\", \"actions\": [{\"id\": \"a\", \"title\": \"A\", \"destructive\": true}]}", path: "c.json")
        #expect(file.diagnostics.isEmpty)
        #expect(file.category?.actions.first?.destructive == true)
        #expect(file.sourceMap.location(of: "/actions/0/id").column == 38)
    }

    @Test func anActionWithoutTitleIsKeptSoContextsStillResolve() throws {
        let file = load("category: c\nactions:\n  - id: a\ncontexts: { default: [a] }\n")
        #expect(file.diagnostics.map(\.message) == ["an action needs \"title\""])
        #expect(file.category?.actions.map(\.id) == ["a"])
        #expect(!file.sourceMap.contains("/actions/0/title"))
    }
}
