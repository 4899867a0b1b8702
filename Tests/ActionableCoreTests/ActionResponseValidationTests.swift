import ActionableCore
import Testing

/// Every 422 case of the HTTP API is its own typed error naming the field and the fix.
struct ActionResponseValidationTests {
    static let catalog: Catalog = {
        let loader = CatalogLoader()
        let files = [
            """
            category: invite
            options: [customDismissAction]
            payload:
              inviteId: { type: string, required: true, maxLength: 8 }
              seats: integer
              price: number
              vip: boolean
              tags: array
              meta: object
            actions:
              - { id: accept, title: Accept }
              - { id: comment, title: Comment, input: { maxLength: 5 } }
            """,
            "category: message\nactions: [{ id: reply, title: Reply, input: {} }]\n",
        ]
        return Catalog(
            files.enumerated().compactMap {
                loader.loadFile(path: "f\($0.offset).yaml", contents: Array($0.element.utf8)).category
            })
    }()

    func response(
        _ category: CategoryID = "invite", action: ActionID = "accept", text: String? = nil,
        payload: [(String, JSONValue)] = [("inviteId", .string("42"))]
    ) -> ActionResponse {
        ActionResponse(category: category, action: action, notificationID: "n", user: "u", userText: text, payload: payload)
    }

    func error(_ response: ActionResponse) -> ActionResponseError? {
        do {
            try Self.catalog.validate(response)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidResponsePasses() throws {
        let (category, action) = try Self.catalog.validate(response())
        #expect(category.id == "invite")
        #expect(action?.id == "accept")
    }

    @Test func unknownCategory() {
        let failure = error(response("invte"))
        #expect(failure?.code == .unknownCategory)
        #expect(failure?.status == 422)
        #expect(failure?.errors.first?.pointer == "/category")
        #expect(failure?.description == "category \"invte\" is not in the catalog (did you mean \"invite\"?)")
    }

    @Test func unknownAction() {
        let failure = error(response(action: "acept"))
        #expect(failure?.code == .unknownAction)
        #expect(failure?.errors.first?.pointer == "/action")
        #expect(
            failure?.description == "action \"acept\" is not declared in category \"invite\" (did you mean \"accept\"?); declared: accept, comment")
    }

    @Test func appleDefaultActionIsAlwaysAccepted() throws {
        let (_, action) = try Self.catalog.validate(response(action: .default))
        #expect(action == nil)
    }

    @Test func dismissNeedsCustomDismissAction() throws {
        try Self.catalog.validate(response(action: .dismiss))
        let failure = error(response("message", action: .dismiss, payload: []))
        #expect(failure?.code == .dismissNotEnabled)
        #expect(failure?.errors.first?.pointer == "/action")
    }

    @Test func textOnANonInputActionIsRefused() {
        let failure = error(response(action: "accept", text: "hi"))
        #expect(failure?.code == .textNotAllowed)
        #expect(failure?.errors.first?.pointer == "/userText")
        #expect(error(response(action: .default, text: "hi"))?.code == .textNotAllowed)
    }

    @Test func textLengthCountsCharactersAsAPersonDoes() {
        // "é" written as e + combining accent is one character but two scalars and three bytes.
        #expect(error(response(action: "comment", text: "abcd\u{65}\u{301}")) == nil)
        #expect(error(response(action: "comment", text: "👩‍👩‍👧‍👦👍🏽abc")) == nil)
        let failure = error(response(action: "comment", text: "abcdef"))
        #expect(failure?.code == .textTooLong)
        #expect(failure?.description == "userText is 6 characters long; action \"comment\" accepts at most 5")
    }

    @Test func textInputDefaultMaxLengthIs1000() {
        #expect(error(response("message", action: "reply", text: String(repeating: "x", count: 1000), payload: [])) == nil)
        #expect(error(response("message", action: "reply", text: String(repeating: "x", count: 1001), payload: []))?.code == .textTooLong)
    }

    @Test(
        arguments: [
            ([("seats", JSONValue.int(2))], "/payload/inviteId", "payload key \"inviteId\" is required by the category's payload schema"),
            (
                [("inviteId", .string("42")), ("invite", .string("x"))], "/payload/invite",
                "payload key \"invite\" is not declared in the category's payload schema (did you mean \"inviteId\"?)"
            ),
            ([("inviteId", .int(42))], "/payload/inviteId", "payload key \"inviteId\" must be a string, found a number"),
            ([("inviteId", .string("123456789"))], "/payload/inviteId", "payload key \"inviteId\" is 9 characters long; its maxLength is 8"),
            ([("inviteId", .string("1")), ("seats", .double(2.5))], "/payload/seats", "payload key \"seats\" must be an integer, found a number"),
            ([("inviteId", .string("1")), ("vip", .string("yes"))], "/payload/vip", "payload key \"vip\" must be a boolean, found a string"),
            ([("inviteId", .string("1")), ("tags", .object([]))], "/payload/tags", "payload key \"tags\" must be an array, found an object"),
            ([("inviteId", .string("1")), ("meta", .array([]))], "/payload/meta", "payload key \"meta\" must be an object, found an array"),
        ] as [([(String, JSONValue)], String, String)])
    func payloadMismatches(payload: [(String, JSONValue)], pointer: String, detail: String) {
        let failure = error(response(payload: payload))
        #expect(failure?.code == .payloadMismatch)
        #expect(failure?.errors.first?.pointer == pointer)
        #expect(failure?.errors.first?.detail == detail)
    }

    @Test func everyPayloadProblemIsReportedAtOnce() {
        let failure = error(response(payload: [("seats", .string("two")), ("bogus", .null)]))
        #expect(failure?.errors.map(\.pointer) == ["/payload/bogus", "/payload/inviteId", "/payload/seats"])
    }

    @Test func numbersAcceptIntegersAndIntegralDoublesAreIntegers() {
        #expect(error(response(payload: [("inviteId", .string("1")), ("price", .int(3)), ("seats", .double(4))])) == nil)
    }

    @Test func forwardedApsAndActionTokenKeysAreIgnored() {
        let payload: [(String, JSONValue)] = [("inviteId", .string("1")), ("aps", .object([])), ("actionToken", .string("t"))]
        #expect(error(response(payload: payload)) == nil)
    }
}
