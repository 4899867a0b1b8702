import ActionableCore
import Testing

struct IdentifierSyntaxTests {
    @Test(arguments: [
        "a", "invite", "chat.message-v2_beta", "A9", String(repeating: "a", count: 64),
        "com.apple.UNNotificationDefaultActionIdentifier",
    ])
    func valid(id: String) { #expect(IdentifierSyntax.isValid(id)) }

    @Test(arguments: ["", "1st", "_a", "-a", ".a", "a b", "a!", "café", String(repeating: "a", count: 65), "a/b"])
    func invalid(id: String) { #expect(!IdentifierSyntax.isValid(id)) }
}

struct SuggestionTests {
    @Test func typosFindTheirWord() {
        #expect(Suggestion.closest(to: "titel", in: ["title", "id"]) == "title")
        #expect(Suggestion.closest(to: "acept", in: ["accept", "decline"]) == "accept")
        #expect(Suggestion.closest(to: "ACTIONS", in: ["actions"]) == "actions")
        #expect(Suggestion.closest(to: "authenticationRequierd", in: ["authenticationRequired"]) == "authenticationRequired")
    }

    @Test func unrelatedWordsFindNothing() {
        #expect(Suggestion.closest(to: "zebra", in: ["title", "id", "actions"]) == nil)
        #expect(Suggestion.closest(to: "ab", in: ["xy"]) == nil)
        #expect(Suggestion.didYouMean("zebra", in: ["title"]) == "")
    }

    @Test func tiesGoToTheAlphabeticallyFirstCandidate() {
        #expect(Suggestion.closest(to: "bat", in: ["cat", "bar"]) == "bar")
        #expect(Suggestion.closest(to: "bat", in: ["bar", "cat"]) == "bar")
    }
}

struct JSONValueTests {
    @Test func objectsKeepTheirOrder() {
        let value = JSONValue.object([("z", .int(1)), ("a", .bool(false)), ("m", .null)])
        #expect(value.serialized() == #"{"z":1,"a":false,"m":null}"#)
    }

    @Test func stringsAreEscapedAsRFC8259Requires() {
        let value = JSONValue.string("quote \" backslash \\ newline \n tab \t bell \u{07} 拒绝 🎉")
        #expect(value.serialized() == #""quote \" backslash \\ newline \n tab \t bell \u0007 拒绝 🎉""#)
    }

    @Test func prettyOutputIndentsTwoSpaces() {
        let value = JSONValue.object([("a", .array([.int(1), .string("x")])), ("b", .object([]))])
        #expect(value.prettySerialized() == "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"b\": {}\n}")
    }

    @Test func doublesThatAreWholeNumbersPrintWithoutAFraction() {
        #expect(JSONValue.array([.double(3), .double(0.5), .double(.infinity)]).serialized() == "[3,0.5,null]")
    }
}
