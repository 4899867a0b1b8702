import ActionableCore
import ActionableRouter
import Logging

// Profiling aid: lookups and dispatches on a 10-category router (perf record this binary).
let actions = ["accept", "decline", "maybe", "comment"]
let categories = (0..<10).map { "category\($0)" }
let catalog = Catalog(
    categories.map { id in
        NotificationCategory(id: CategoryID(id), actions: actions.map { NotificationAction(id: ActionID($0), title: "T") })
    })
var builder = RouterBuilder(catalog: catalog)
for category in categories { for action in actions { builder.on(CategoryID(category), ActionID(action)) { _, _ in .done } } }
let router = try builder.build()
let responses = (0..<4096).map { step -> ActionResponse in
    let route = (step &* 2_654_435_761) % 40
    return ActionResponse(category: CategoryID(categories[route / 4]), action: ActionID(actions[route % 4]), notificationID: "n", user: "u")
}
let context = ActionContext(responseID: "r", logger: Logger(label: "p", factory: { _ in SwiftLogNoOpLogHandler() }))

@inline(never)
nonisolated func lookups(_ router: ActionRouter, _ responses: [ActionResponse], _ count: Int) -> Int {
    var found = 0
    for step in 0..<count where router.handler(for: responses[step & 4095]) != nil { found += 1 }
    return found
}

@inline(never)
nonisolated func dispatches(_ router: ActionRouter, _ responses: [ActionResponse], _ context: ActionContext, _ count: Int) async -> Int {
    var done = 0
    for step in 0..<count {
        if let handler = router.handler(for: responses[step & 4095]), (try? await handler(responses[step & 4095], context)) == .done {
            done += 1
        }
    }
    return done
}

let count = 10_000_000
let mode = CommandLine.arguments.dropFirst().first ?? "both"
if mode != "dispatch" {
    let start = ContinuousClock.now
    let found = lookups(router, responses, count)
    print("lookup", found, (ContinuousClock.now - start) / count)
}
if mode != "lookup" {
    let start = ContinuousClock.now
    let done = await dispatches(router, responses, context, count)
    print("dispatch", done, (ContinuousClock.now - start) / count)
}
