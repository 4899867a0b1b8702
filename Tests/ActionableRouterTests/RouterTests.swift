import ActionableCore
import ActionableRouter
import ActionableTesting
import Logging
import Testing

struct RouterTests {
    static let catalog = try! Catalog(
        yaml: """
            category: invite
            options: [customDismissAction]
            payload: { inviteId: { type: string, required: true }, seats: integer }
            actions:
              - { id: accept, title: Accept }
              - { id: decline, title: Decline }
              - { id: comment, title: Comment, input: {} }
            """,
        """
        category: chat.message
        actions: [{ id: reply.now, title: Reply }, { id: read, title: Read }]
        """)

    func answer(_ label: String) -> ActionHandler { { _, _ in .fail(reason: label) } }

    @Test func theMostSpecificRouteWins() async throws {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.onAny(answer("any"))
        builder.on(category: "invite", answer("invite.*"))
        builder.on("invite", "accept", answer("invite.accept"))
        let router = try builder.build()
        #expect(try await router.test(.tap("invite", "accept", payload: ["inviteId": "1"])) == .fail(reason: "invite.accept"))
        #expect(try await router.test(.tap("invite", "decline", payload: ["inviteId": "1"])) == .fail(reason: "invite.*"))
        #expect(try await router.test(.tap("chat.message", "read")) == .fail(reason: "any"))
        #expect(router.route(category: "invite", action: "accept")?.pattern == .action("invite", "accept"))
        #expect(router.route(category: "invite", action: "decline")?.pattern == .category("invite"))
        #expect(router.route(category: "nope", action: "x")?.pattern == .any)
    }

    @Test func openedAndDismissedAreRoutesOfTheirOwn() async throws {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on("invite", .default, answer("opened"))
        builder.on("invite", .dismiss, answer("dismissed"))
        let router = try builder.build()
        #expect(try await router.test(.opened("invite", payload: ["inviteId": "1"])) == .fail(reason: "opened"))
        #expect(try await router.test(.dismissed("invite", payload: ["inviteId": "1"])) == .fail(reason: "dismissed"))
        #expect(!router.handles(category: "invite", action: "accept"))
    }

    @Test func aResponseWithNoRouteThrows() async throws {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on("invite", "accept", answer("a"))
        let router = try builder.build()
        await #expect(throws: NoRouteError.self) {
            try await router.test(.tap("invite", "decline", payload: ["inviteId": "1"]))
        }
    }

    @Test func testingValidatesAgainstTheCatalogFirst() async throws {
        let recorder = HandlerRecorder()
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.onAny(recorder.handler())
        let router = try builder.build()
        await #expect(throws: ActionResponseError.self) {
            try await router.test(.tap("invite", "accept"))  // inviteId missing
        }
        #expect(await recorder.responses.isEmpty)
    }

    @Test func registrationsAreCheckedAgainstTheCatalogAllAtOnce() {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on("invte", "accept", answer("x"))
        builder.on("invite", "acept", answer("x"))
        builder.on("chat.message", .dismiss, answer("x"))
        builder.on("invite", "decline", answer("x"))
        builder.on("invite", "decline", answer("y"))
        #expect {
            try builder.build()
        } throws: { error in
            let messages = (error as? RouterError)?.problems.map(\.message) ?? []
            return messages == [
                "route invte.accept names category \"invte\", which the catalog does not declare (did you mean \"invite\"?)",
                "route invite.acept names action \"acept\", which category \"invite\" does not declare (did you mean \"accept\"?)",
                "route chat.message.com.apple.UNNotificationDismissActionIdentifier can never run: category \"chat.message\" lacks the customDismissAction option",
                "route invite.decline is registered twice",
            ]
        }
    }

    @Test func uncoveredRoutesAreReported() {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on("invite", "accept", answer("a"))
        builder.on(category: "chat.message", answer("c"))
        #expect(
            builder.uncovered.map(\.description) == [
                "invite.decline", "invite.comment", "invite.com.apple.UNNotificationDefaultActionIdentifier",
                "invite.com.apple.UNNotificationDismissActionIdentifier",
            ])
        builder.onAny(answer("any"))
        #expect(builder.uncovered.isEmpty)
    }

    struct InvitePayload: Decodable, Sendable {
        var inviteId: String
        var seats: Int?
    }

    struct WrongPayload: Decodable, Sendable {
        var seats: String
    }

    @Test func handlersCanAskForTheirPayloadTyped() async throws {
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on("invite", "accept", payload: InvitePayload.self) { response, invite, _ in
            .fail(reason: "\(invite.inviteId):\(invite.seats ?? -1):\(response.user)")
        }
        builder.on("invite", "decline", payload: WrongPayload.self) { _, _, _ in .done }
        let router = try builder.build()
        #expect(
            try await router.test(.tap("invite", "accept", user: "ann", payload: ["inviteId": "7", "seats": 2]))
                == .fail(reason: "7:2:ann"))
        let outcome = try await router.test(.tap("invite", "decline", payload: ["inviteId": "7", "seats": 2]))
        guard case .fail(let reason) = outcome else {
            Issue.record("a payload that does not decode must fail permanently, got \(outcome)")
            return
        }
        #expect(reason.contains("does not decode as WrongPayload"))
    }

    @Test func middlewareWrapsHandlersOutermostFirstAndCanAnswerAlone() async throws {
        let recorder = HandlerRecorder()
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.use(
            ClosureMiddleware { response, context, next in
                var context = context
                context.attempt += 100
                return try await next(response, context)
            })
        builder.use(
            ClosureMiddleware { response, context, next in
                response.user == "blocked" ? .fail(reason: "blocked") : try await next(response, context)
            })
        builder.onAny(recorder.handler())
        let router = try builder.build()
        #expect(try await router.test(.tap("chat.message", "read"), attempt: 1) == .done)
        #expect(await recorder.contexts.map(\.attempt) == [101])
        #expect(try await router.test(.tap("chat.message", "read", user: "blocked")) == .fail(reason: "blocked"))
        #expect(await recorder.responses.count == 1)
    }

    @Test func thrownErrorsReachTheCaller() async throws {
        struct Down: Error {}
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.onAny { _, _ in throw Down() }
        let router = try builder.build()
        await #expect(throws: Down.self) { try await router.test(.tap("chat.message", "read")) }
    }

    @Test func dispatchIsSafeFromManyTasksAtOnce() async throws {
        let recorder = HandlerRecorder()
        var builder = RouterBuilder(catalog: Self.catalog)
        builder.on(category: "chat.message", recorder.handler())
        let router = try builder.build()
        try await withThrowingTaskGroup(of: HandlerOutcome.self) { group in
            for index in 0..<200 {
                group.addTask { try await router.test(.tap("chat.message", index.isMultiple(of: 2) ? "read" : "reply.now")) }
            }
            for try await outcome in group { #expect(outcome == .done) }
        }
        #expect(await recorder.responses.count == 200)
    }
}

struct RoutePatternTests {
    @Test func patternsParseAgainstTheCatalogEvenWithDotsInIds() throws {
        let catalog = RouterTests.catalog
        #expect(try RoutePattern(parsing: "*", in: catalog) == .any)
        #expect(try RoutePattern(parsing: "invite.*", in: catalog) == .category("invite"))
        #expect(try RoutePattern(parsing: "invite.accept", in: catalog) == .action("invite", "accept"))
        #expect(try RoutePattern(parsing: "chat.message.reply.now", in: catalog) == .action("chat.message", "reply.now"))
        #expect(try RoutePattern(parsing: "chat.message.*", in: catalog) == .category("chat.message"))
    }

    @Test func anUnknownPatternSuggestsTheClosest() {
        #expect {
            try RoutePattern(parsing: "invite.acept", in: RouterTests.catalog)
        } throws: { error in
            (error as? RouterError)?.description
                == "route \"invite.acept\" names no declared category.action; write category.action, category.* or * (did you mean \"invite.accept\"?)"
        }
    }
}

/// The frozen table against a plain dictionary, over many categories with colliding prefixes.
struct RouteTableTests {
    @Test func everyRouteOfALargeCatalogResolvesToItsHandler() async throws {
        let categories = (0..<3000).map { index in
            NotificationCategory(
                id: CategoryID("c\(index)"),
                actions: (0..<4).map {
                    NotificationAction(id: ActionID("a\($0)"), title: "A")
                })
        }
        let catalog = Catalog(categories)
        var builder = RouterBuilder(catalog: catalog)
        var expected: [String: String] = [:]
        for index in stride(from: 0, to: 3000, by: 3) {
            for action in 0..<4 where (index + action).isMultiple(of: 2) {
                let label = "c\(index).a\(action)"
                builder.on(CategoryID("c\(index)"), ActionID("a\(action)")) { _, _ in .fail(reason: label) }
                expected[label] = label
            }
            builder.on(category: CategoryID("c\(index)")) { _, _ in .fail(reason: "c\(index).*") }
        }
        builder.onAny { _, _ in .fail(reason: "*") }
        let router = try builder.build()
        let context = ActionContext(responseID: "r", logger: .init(label: "t"))
        for index in 0..<3000 {
            for action in 0..<4 {
                let label = "c\(index).a\(action)"
                let want = expected[label] ?? (index.isMultiple(of: 3) ? "c\(index).*" : "*")
                let response = ActionResponse(
                    category: CategoryID("c\(index)"), action: ActionID("a\(action)"),
                    notificationID: "n", user: "u")
                #expect(try await router.dispatch(response, context: context) == .fail(reason: want))
            }
        }
    }
}
