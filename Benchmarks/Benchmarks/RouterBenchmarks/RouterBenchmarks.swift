import ActionableCore
import ActionableRouter
import Benchmark
import Logging
import RoutingKit

/// Route lookup + handler call, ours against routing-kit's TrieRouter on the same
/// `/category/action` routes, at 10, 1,000 and 100,000 categories × 4 actions. Queries cycle
/// through a fixed pseudo-random order over every route, prepared before measuring so that
/// neither side allocates for its input.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )
    for size in [10, 1_000, 100_000] {
        let categories = (0..<size).map { "category\($0)" }
        let actions = ["accept", "decline", "maybe", "comment"]
        let catalog = Catalog(categories.map { id in
            NotificationCategory(id: CategoryID(id), actions: actions.map { NotificationAction(id: ActionID($0), title: "T") })
        })
        var builder = RouterBuilder(catalog: catalog)
        let trie = TrieRouter(ActionHandler.self, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
        for category in categories {
            for action in actions {
                let handler: ActionHandler = { _, _ in .done }
                builder.on(CategoryID(category), ActionID(action), handler)
                trie.register(handler, at: [.constant(category), .constant(action)])
            }
        }
        let router = try! builder.build()

        // 4,096 queries in a fixed scrambled order (a multiplicative walk over every route).
        let routeCount = size * actions.count
        let queries = (0..<4096).map { step -> (String, String) in
            let route = (step &* 2_654_435_761) % routeCount
            return (categories[route / actions.count], actions[route % actions.count])
        }
        let responses = queries.map { ActionResponse(category: CategoryID($0.0), action: ActionID($0.1), notificationID: "n", user: "u") }
        let paths = queries.map { [$0.0, $0.1] }
        let context = ActionContext(responseID: "r", logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))

        Benchmark("Actionable router dispatch, \(size) categories", configuration: configuration) { benchmark async in
            await dispatchLoop(benchmark.scaledIterations.count, router, responses, context)
        }

        Benchmark("component: Actionable lookup only, \(size) categories", configuration: configuration) { benchmark in
            var index = 0
            for _ in benchmark.scaledIterations {
                blackHole(router.handler(for: responses[index]) != nil)
                index = (index + 1) & 4095
            }
        }

        Benchmark("component: routing-kit lookup only, \(size) categories", configuration: configuration) { benchmark in
            var parameters = Parameters(trie.logger)
            var index = 0
            for _ in benchmark.scaledIterations {
                blackHole(trie.route(path: paths[index], parameters: &parameters) != nil)
                index = (index + 1) & 4095
            }
        }

        let box = TrieBox(trie: trie)
        Benchmark("routing-kit TrieRouter + call, \(size) categories", configuration: configuration) { benchmark async in
            await trieLoop(benchmark.scaledIterations.count, box, paths, responses, context)
        }
    }

    let handler: ActionHandler = { _, _ in .done }
    let someResponse = ActionResponse(category: "c", action: "a", notificationID: "n", user: "u")
    let someContext = ActionContext(responseID: "r", logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() }))
    Benchmark("component: await a handler closure", configuration: configuration) { benchmark async in
        await callLoop(benchmark.scaledIterations.count, handler, someResponse, someContext)
    }

    // Validating an action response against the catalog (the server does it per request).
    let invite = try! CatalogLoader().loadFile(path: "invite.yaml", contents: Array("""
        category: invite
        payload: { inviteId: { type: string, required: true, maxLength: 64 }, eventName: string }
        actions: [{ id: accept, title: Accept }, { id: decline, title: Decline },
                  { id: comment, title: Comment, input: { maxLength: 500 } }]
        """.utf8)).category!
    let catalog = Catalog([invite])
    let response = ActionResponse(category: "invite", action: "comment", notificationID: "n", user: "u",
        userText: "Running ten minutes late", payload: [("inviteId", .string("inv-42")), ("eventName", .string("Dinner"))])
    Benchmark("validate an action response", configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3))) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? catalog.validate(response))
        }
    }
}

// The loops run in nonisolated async functions, as a server's request handling does: awaiting
// a handler from the benchmark's own (main-actor) closure would add an executor hop, a thread
// switch, to every call on both sides.

@inline(never)
nonisolated func dispatchLoop(_ count: Int, _ router: ActionRouter, _ responses: [ActionResponse],
    _ context: ActionContext) async {
    var index = 0
    for _ in 0..<count {
        if let handler = router.handler(for: responses[index]) {
            blackHole(try? await handler(responses[index], context))
        }
        index = (index + 1) & 4095
    }
}

/// TrieRouter is a final class built before measuring and only read afterwards.
struct TrieBox: @unchecked Sendable {
    let trie: TrieRouter<ActionHandler>
}

@inline(never)
nonisolated func trieLoop(_ count: Int, _ box: TrieBox, _ paths: [[String]], _ responses: [ActionResponse],
    _ context: ActionContext) async {
    var parameters = Parameters(box.trie.logger)  // reused: Parameters() builds a Logger per call
    var index = 0
    for _ in 0..<count {
        if let handler = box.trie.route(path: paths[index], parameters: &parameters) {
            blackHole(try? await handler(responses[index], context))
        }
        index = (index + 1) & 4095
    }
}

@inline(never)
nonisolated func callLoop(_ count: Int, _ handler: ActionHandler, _ response: ActionResponse, _ context: ActionContext) async {
    for _ in 0..<count {
        blackHole(try? await handler(response, context))
    }
}
