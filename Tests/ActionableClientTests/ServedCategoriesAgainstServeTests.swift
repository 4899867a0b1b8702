import ActionableClient
import ActionableClientStandIn
import ActionableTestSupport
import Foundation
import Testing
import UserNotifications

/// New buttons without an app release: an installed app (its code fixed, the UserNotifications
/// stand-in as the phone) registers the categories a real `actionable serve` serves, a
/// notification service extension registers one it has not seen, and a tap on such a category
/// reaches the upstream like any other.
@Suite(.timeLimit(.minutes(3)))
struct ServedCategoriesAgainstServeTests {
    /// A category the app's compiled code never saw, added to the server's files later.
    static let pollFile = """
        category: poll
        payload:
          pollId: { type: string, required: true }
        actions:
          - id: yes
            title: { en: "Yes", de: "Ja" }
          - id: no
            title: { en: "No", de: "Nein" }
            destructive: true
          - id: why
            title: { en: "Why?", de: "Warum?" }
            input: { button: { en: Send, de: Senden }, maxLength: 140 }
        """

    /// What the app was compiled with (the generated `NotificationCategories.all`): an older
    /// invite with one action.
    static let compiled: Set<UNNotificationCategory> = [
        UNNotificationCategory(
            identifier: "invite", actions: [UNNotificationAction(identifier: "accept", title: "Accept", options: [])], intentIdentifiers: [],
            options: [])
    ]
    static let otherSDK = UNNotificationCategory(identifier: "ONESIGNAL_DYNAMIC", actions: [], intentIdentifiers: [], options: [])

    static func identifiers(_ center: UNUserNotificationCenter) async -> Set<String> {
        Set(await center.notificationCategories().map(\.identifier))
    }

    @Test func aCategoryAddedToTheServersFilesIsRegisteredAtTheNextLaunchAndAnUnchangedOneIsAskedForWithItsETag() async throws {
        let fixture = try ClientFixture()
        let cache = fixture.directory.appendingPathComponent("app-catalog")
        let center = UNUserNotificationCenter.standInIsolated()
        center.setNotificationCategories([Self.otherSDK])
        try await RecordingUpstream.run { upstream, upstreamPort in
            try await CatalogProxy.run { proxy, proxyPort in
                let server = URL(string: "http://127.0.0.1:\(proxyPort)/")!
                let port = try ServerProcess.freePort()
                var serve = try await fixture.serve(port: port, upstream: upstreamPort)
                await proxy.pass(to: port)

                // First launch: nothing cached; the catalog is fetched and registered with the
                // compiled categories, beside the other SDK's.
                let first = await CatalogSync(server: server, cache: cache, languages: ["de-CH"])
                    .registerAtLaunch(compiled: Self.compiled, on: center)
                #expect(first.registrations == 1)
                #expect(first.served == ["invite", "login-approval", "message", "order-shipped"])
                #expect(await Self.identifiers(center) == ["ONESIGNAL_DYNAMIC", "invite", "login-approval", "message", "order-shipped"])
                // The compiled invite wins over the served one (what the app was built with is never
                // relaxed from the network); the others come from the server, in the device's language.
                let invite = try #require(await center.notificationCategories().first { $0.identifier == "invite" })
                #expect(invite.actions.map(\.identifier) == ["accept"])
                let approval = try #require(await center.notificationCategories().first { $0.identifier == "login-approval" })
                #expect(approval.actions.map(\.title) == ["Ja, das bin ich", "Nein, blockieren", "Prüfen"])
                #expect(approval.actions[0].options.contains(.authenticationRequired) && approval.actions[2].options.contains(.foreground))
                #expect(await proxy.exchanges.map(\.ifNoneMatch) == [nil])

                // The server's files gain a category; the server restarts. The app is not rebuilt.
                await serve.stop()
                try Self.pollFile.write(to: fixture.directory.appendingPathComponent("Categories/poll.yaml"), atomically: true, encoding: .utf8)
                serve = try await fixture.serve(port: port, upstream: upstreamPort)
                defer { serve.signal() }

                let second = await CatalogSync(server: server, cache: cache, languages: ["de-CH"])
                    .registerAtLaunch(compiled: Self.compiled, on: center)
                #expect(second.registrations == 2)  // the cached catalog at once, the changed one after
                #expect(second.served.contains("poll"))
                let poll = try #require(await center.notificationCategories().first { $0.identifier == "poll" })
                #expect(poll.actions.map(\.title) == ["Ja", "Nein", "Warum?"])
                #expect((poll.actions[2] as? UNTextInputNotificationAction)?.textInputButtonTitle == "Senden")
                #expect(poll.actions[1].options.contains(.destructive))
                #expect(await Self.identifiers(center).isSuperset(of: ["ONESIGNAL_DYNAMIC", "poll", "invite"]))

                // Third launch, nothing changed: If-None-Match with the cached ETag, 304, one registration.
                let before = center.standInRegistrationCount
                let sync = CatalogSync(server: server, cache: cache, languages: ["de-CH"])
                let third = await sync.registerAtLaunch(compiled: Self.compiled, on: center)
                #expect(third.registrations == 1)
                #expect(center.standInRegistrationCount == before + 1)
                let exchanges = await proxy.exchanges
                #expect(exchanges.count == 3)
                let etag = await sync.cachedETag()
                #expect(exchanges[2].ifNoneMatch != nil && exchanges[2].ifNoneMatch == etag)
                #expect(exchanges[2].status == 304)
                guard case .success(.unchanged) = third.refresh else {
                    Issue.record("expected an unchanged catalog, got \(third.refresh)")
                    return
                }

                // A tap on the runtime category: the report carries its payload keys, the server
                // accepts it (the category is in its catalog), and the upstream gets it.
                let catalog = try #require(await sync.cached())
                let handler = NotificationResponseHandler(
                    reporter: fixture.reporter(port: port), payloadKeys: { catalog.payloadKeys(ofCategory: $0) })
                var userInfo = try await fixture.userInfo(category: "poll", set: ["pollId=p-7"], notificationID: "n-poll-1")
                userInfo["other-sdk-key"] = "x"
                let handled = await handler.handle(
                    .standIn(action: "why", category: "poll", userInfo: userInfo, identifier: "ios-poll", userText: "Too early"))
                guard case .reported(.delivered) = handled else {
                    Issue.record("the tap was not delivered: \(handled)")
                    return
                }
                let forwarded = try await upstream.deliveries(count: 1)
                #expect(forwarded[0]["category"] as? String == "poll")
                #expect(forwarded[0]["action"] as? String == "why")
                #expect(forwarded[0]["userText"] as? String == "Too early")
                #expect((forwarded[0]["payload"] as? [String: Any])?.keys.sorted() == ["pollId"])
            }
        }
    }

    @Test func theExtensionRegistersAnUnknownCategoryAndHandsTheContentOnOnlyOnceTheCenterReportsIt() async throws {
        let fixture = try ClientFixture()
        try Self.pollFile.write(to: fixture.directory.appendingPathComponent("Categories/poll.yaml"), atomically: true, encoding: .utf8)
        let port = try ServerProcess.freePort()
        let serve = try await ServerProcess.serve(in: fixture.directory, port: port)
        defer { serve.signal() }
        let center = UNUserNotificationCenter.standInIsolated()
        center.setNotificationCategories([Self.otherSDK])
        center.standInHoldRegistrations()  // the system takes its time to apply a registration

        let service = ExampleNotificationService(
            categories: NotificationServiceCategories(
                sync: CatalogSync(
                    server: URL(string: "http://127.0.0.1:\(port)/")!, cache: fixture.directory.appendingPathComponent("group/catalog"),
                    languages: ["en"]),
                compiled: Self.compiled, center: center, deadline: 120))
        let shown = Shown()
        service.didReceive(Self.request(category: "poll"), withContentHandler: { shown.record($0) })
        await center.standInRegistrations(reaching: 2)  // the extension registered (the first was the other SDK's)
        #expect(shown.contents.isEmpty)  // not handed on while the center does not report the category

        center.standInApplyHeldRegistrations()
        let content = try await shown.first()
        #expect(content.categoryIdentifier == "poll")
        #expect(await Self.identifiers(center) == ["ONESIGNAL_DYNAMIC", "invite", "login-approval", "message", "order-shipped", "poll"])
        service.serviceExtensionTimeWillExpire()  // after the hand-on: nothing is handed on twice
        #expect(shown.contents.count == 1)

        // A category the center knows is handed on at once, without asking the server.
        await serve.stop()
        let known = NotificationServiceCategories(
            sync: CatalogSync(server: URL(string: "http://127.0.0.1:\(port)/")!, cache: fixture.directory.appendingPathComponent("none")),
            center: center)
        #expect(await known.prepare("poll") == .known)
        #expect(await known.prepare("") == .known)
        // Through didReceive too: handed on at once, whatever the order of the work and the call.
        let atOnce = Shown()
        known.didReceive(Self.request(category: "poll"), withContentHandler: { atOnce.record($0) })
        #expect(try await atOnce.first().categoryIdentifier == "poll")
        let empty = Shown()
        known.didReceive(Self.request(category: ""), withContentHandler: { empty.record($0) })
        #expect(try await empty.first().categoryIdentifier == "")
    }

    @Test func withTheServerDownOrTheCenterSilentTheNotificationIsShownWithoutButtonsNeverDropped() async throws {
        let fixture = try ClientFixture()
        let center = UNUserNotificationCenter.standInIsolated()
        let down = try ServerProcess.freePort()  // nothing listens
        let offline = NotificationServiceCategories(
            sync: CatalogSync(server: URL(string: "http://127.0.0.1:\(down)/")!, cache: fixture.directory.appendingPathComponent("a")),
            center: center)
        let shown = Shown()
        offline.didReceive(Self.request(category: "poll"), withContentHandler: { shown.record($0) })
        #expect(try await shown.first().categoryIdentifier == "poll")
        guard case .withoutButtons(let reason) = await offline.prepare("poll") else {
            Issue.record("expected no buttons")
            return
        }
        #expect(reason.contains("could not be fetched"))
        #expect(await Self.identifiers(center).isEmpty)

        // The server up, but the center never reports the registration: the deadline hands it on.
        try Self.pollFile.write(to: fixture.directory.appendingPathComponent("Categories/poll.yaml"), atomically: true, encoding: .utf8)
        let port = try ServerProcess.freePort()
        let serve = try await ServerProcess.serve(in: fixture.directory, port: port)
        defer { serve.signal() }
        // The catalog already cached (as the app's launch left it): the deadline is spent waiting
        // for the center, not fetching.
        let cached = CatalogSync(server: URL(string: "http://127.0.0.1:\(port)/")!, cache: fixture.directory.appendingPathComponent("b"))
        try await cached.refresh()
        center.standInHoldRegistrations()
        let silent = NotificationServiceCategories(sync: cached, center: center, deadline: 1)
        guard case .withoutButtons(let late) = await silent.prepare("poll") else {
            Issue.record("expected no buttons")
            return
        }
        #expect(late.contains("did not report"))
        // A category the server does not serve.
        let unknown = await NotificationServiceCategories(
            sync: CatalogSync(server: URL(string: "http://127.0.0.1:\(port)/")!, cache: fixture.directory.appendingPathComponent("c")),
            center: center
        ).prepare("nope")
        #expect(unknown == .withoutButtons("the server does not serve the category 'nope'"))

        // The system's time running out with two notifications in hand: each handed on at once, once.
        let waiting = NotificationServiceCategories(sync: cached, center: center, deadline: 600)
        let expiring = Shown()
        let other = Shown()
        waiting.didReceive(Self.request(category: "poll"), withContentHandler: { expiring.record($0) })
        waiting.didReceive(Self.request(category: "poll", identifier: "n-second"), withContentHandler: { other.record($0) })
        await center.standInRegistrations(reaching: 3)  // one of them registered (held): both wait for the center
        waiting.serviceExtensionTimeWillExpire()
        #expect(try await expiring.first().categoryIdentifier == "poll")
        #expect(try await other.first().body == "Lunch at 12?")
        waiting.serviceExtensionTimeWillExpire()
        #expect(expiring.contents.count == 1 && other.contents.count == 1)
    }

    static func request(category: String, identifier: String? = nil) -> UNNotificationRequest {
        UNNotificationRequest(
            standInIdentifier: identifier ?? "n-\(category)",
            content: UNNotificationContent(standInTitle: "A poll", body: "Lunch at 12?", categoryIdentifier: category, userInfo: [:]))
    }
}

/// A notification service extension as the docs write it.
final class ExampleNotificationService: UNNotificationServiceExtension, @unchecked Sendable {
    let categories: NotificationServiceCategories

    init(categories: NotificationServiceCategories) {
        self.categories = categories
        super.init()
    }

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        categories.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() { categories.serviceExtensionTimeWillExpire() }
}

/// What the system was handed to show.
final class Shown: @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [UNNotificationContent] = []
    private var waiters: [CheckedContinuation<UNNotificationContent, Never>] = []

    var contents: [UNNotificationContent] { lock.withLock { shown } }

    func record(_ content: UNNotificationContent) {
        let waiting = lock.withLock {
            shown.append(content)
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: content) }
    }

    /// The first content handed on.
    func first() async throws -> UNNotificationContent {
        try await within("the content to be handed on") {
            await withCheckedContinuation { continuation in
                let now: UNNotificationContent? = self.lock.withLock {
                    if let first = self.shown.first { return first }
                    self.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }
    }
}
