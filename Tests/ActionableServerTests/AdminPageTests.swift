import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTesting
import ActionableTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// `GET /admin` through the router: nothing without a session or the bearer token, the cookie's
/// flags, the CSRF check, and text from storage escaped.
struct AdminPageTests {
    static let admin = DeliveriesEndpointTests.admin

    struct Page: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: String
    }

    /// Runs `calls` in order (method, path, form body, cookie, bearer) against one server.
    static func run(
        _ store: InMemoryActionStore, secure: Bool = false, catalog: LiveCatalog = LiveCatalog(ActionsEndpointTests.catalog),
        _ calls: [(HTTPRequest.Method, String, String?, String?, String?)]
    ) async throws -> [Page] {
        var settings = ServerSettings(adminToken: admin)
        settings.secureAdminCookie = secure
        let app = Application(
            router: ActionableRoutes.router(
                catalog: catalog, storage: StorageGate(open: store), tokens: try await ActionTokens(keys: [ActionsEndpointTests.key]),
                settings: settings))
        return try await app.test(.router) { client in
            var pages: [Page] = []
            for (method, path, form, cookie, bearer) in calls {
                var headers: HTTPFields = [:]
                if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
                if let cookie { headers[.cookie] = "theme=dark; actionable_admin=\(cookie)" }
                if let bearer { headers[.authorization] = "Bearer \(bearer)" }
                pages.append(
                    try await client.execute(uri: path, method: method, headers: headers, body: ByteBuffer(string: form ?? "")) {
                        Page(status: $0.status, headers: $0.headers, body: String(buffer: $0.body))
                    })
            }
            return pages
        }
    }

    static func cookie(of page: Page) -> String? {
        page.headers[.setCookie]?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init)
    }

    static func csrf(in page: Page) -> String? {
        page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.components(separatedBy: "\"").first
    }

    /// The Reload button: a refused reload keeps the catalog served and lists each problem on the
    /// page, escaped; a good one serves the new catalog (and the page says so); without the
    /// bearer token or a session, nothing is reloaded.
    @Test func theReloadButtonReloadsAndThePageShowsWhyARefusedOneWasRefused() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        let answers = Mutex<[Result<Catalog, LiveCatalog.LoadRefused>]>([
            .failure(.init(problems: ["Categories/broken.yaml:2:15: error: <unclosed> flow sequence"])),
            .success(Catalog(Array(ActionsEndpointTests.catalog.categories.prefix(1)))),
        ])
        let live = LiveCatalog(ActionsEndpointTests.catalog) { _ in answers.withLock { $0.removeFirst() } }
        let before = live.current.etag
        let pages = try await Self.run(
            store, catalog: live,
            [
                (.post, "/admin/categories/reload", "csrf=x", nil, nil),
                (.post, "/admin/categories/reload", "", nil, Self.admin), (.get, "/admin", nil, nil, Self.admin),
                (.get, "/v1/categories", nil, nil, nil),
                (.post, "/admin/categories/reload", "", nil, Self.admin), (.get, "/admin", nil, nil, Self.admin),
                (.get, "/v1/categories", nil, nil, nil),
            ])
        #expect(pages.map(\.status) == [.unauthorized, .seeOther, .ok, .ok, .seeOther, .ok, .ok])
        #expect(pages[2].body.contains(#"id="last-reload""#) && pages[2].body.contains("refused; the catalog served before stays"))
        #expect(pages[2].body.contains("&lt;unclosed&gt; flow sequence"), "each problem listed, escaped")
        #expect(pages[3].headers[.eTag] == before, "a refused reload serves the catalog it had")
        #expect(pages[5].body.contains("the category files loaded; ETag"))
        #expect(pages[6].headers[.eTag] != before && pages[6].headers[.eTag] == live.current.etag)
        #expect(live.catalog.categories.count == 1)
    }

    @Test func withoutASessionThePageIsTheSignInFormAndNothingElse() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        let pages = try await Self.run(
            store,
            [
                (.get, "/admin", nil, nil, nil), (.get, "/admin", nil, "9999999999.forged.mac", nil), (.get, "/admin", nil, nil, "wrong"),
                (.post, "/admin/deliveries/r-000/retry", "csrf=x", nil, nil),
            ])
        #expect(pages.map(\.status) == [.ok, .ok, .ok, .unauthorized])
        for page in pages {
            #expect(page.body.contains(#"action="/admin/session""#))
            #expect(!page.body.contains("r-000"))
            #expect(!page.body.contains("count-dead"))
            #expect(page.headers[.cacheControl] == "no-store")
        }
        #expect(try await store.response(id: "r-000")?.status == .dead)
    }

    @Test func signingInSetsAStrictHttpOnlyCookieAndTheRetryFormNeedsItsCSRFToken() async throws {
        let store = try await DeliveriesEndpointTests.seeded()
        let signIn = try await Self.run(
            store, secure: true,
            [
                (.post, "/admin/session", "token=wrong", nil, nil), (.post, "/admin/session", "token=\(Self.admin)", nil, nil),
            ])
        #expect(signIn[0].status == .unauthorized)
        #expect(signIn[0].body.contains("That is not the server"))
        #expect(signIn[0].headers[.setCookie] == nil)
        #expect(signIn[1].status == .seeOther)
        let setCookie = try #require(signIn[1].headers[.setCookie])
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/admin", "Secure", "Max-Age=28800"] { #expect(setCookie.contains(attribute)) }
        let cookie = try #require(Self.cookie(of: signIn[1]))

        let page = try #require(try await Self.run(store, [(.get, "/admin", nil, cookie, nil)]).first)
        #expect(page.body.contains(#"id="count-dead"><div class="n">3<"#))
        #expect(page.body.contains("upstream answered 410 Gone"))
        #expect(page.body.contains(#"data-action="decline""#))
        let csrf = try #require(Self.csrf(in: page))

        let forged = try await Self.run(
            store,
            [
                (.post, "/admin/deliveries/r-000/retry", "csrf=\(csrf.dropLast())\(csrf.last == "A" ? "E" : "A")", cookie, nil),
                (.post, "/admin/deliveries/r-000/retry", "", cookie, nil),
            ])
        #expect(forged.map(\.status) == [.forbidden, .forbidden])
        #expect(try await store.response(id: "r-000")?.status == .dead)

        let retried = try await Self.run(
            store,
            [
                (.post, "/admin/deliveries/r-000/retry", "csrf=\(csrf)", cookie, nil), (.get, "/admin?queued=r-000", nil, cookie, nil),
                (.post, "/admin/deliveries/r-001/retry", "", nil, Self.admin),
            ])
        #expect(retried[0].status == .seeOther)
        #expect(retried[0].headers[.location] == "/admin?queued=r%2D000")
        #expect(retried[1].body.contains("Response r-000 is queued again"))
        #expect(retried[2].status == .seeOther)  // scripts with the bearer token need no CSRF token
        #expect(try await store.response(id: "r-000")?.status == .pending)
        #expect(try await store.response(id: "r-001")?.status == .pending)

        // Signing out clears the cookie (with the CSRF token), and a stolen form without one cannot.
        let out = try await Self.run(store, [(.post, "/admin/logout", "csrf=\(csrf)", cookie, nil)])
        #expect(out.first?.headers[.setCookie]?.contains("Max-Age=0") == true)
        // The old cookie, replayed with its CSRF token, is a signed-out session: it neither sees the
        // page nor changes anything (it still worked for 8 hours).
        let replayed = try await Self.run(
            store, [(.get, "/admin", nil, cookie, nil), (.post, "/admin/deliveries/r-002/retry", "csrf=\(csrf)", cookie, nil)])
        #expect(replayed.map(\.status) == [.ok, .unauthorized])
        #expect(replayed[0].body.contains(#"action="/admin/session""#) && !replayed[0].body.contains("count-dead"))
        #expect(try await store.response(id: "r-002")?.status == .dead)
    }

    @Test func textFromStorageAndTheCatalogIsEscaped() async throws {
        let store = InMemoryActionStore()
        _ = try await store.accept(
            NewResponse(
                id: "r-x", response: ActionResponse(category: "invite", action: "accept", notificationID: "n-x", user: "<b>mallory</b>")))
        let claimed = try await store.claimDue(now: Date().addingTimeInterval(1), limit: 1, lease: 60, owner: "w")
        try await store.markDead(id: try #require(claimed.first?.id), owner: "w", reason: #"<script>alert("x")</script>"#)
        let page = try #require(try await Self.run(store, [(.get, "/admin", nil, nil, Self.admin)]).first)
        #expect(page.status == .ok)
        #expect(!page.body.contains("<script>"))
        #expect(page.body.contains("&lt;script&gt;"))
        #expect(!page.body.contains("<b>mallory</b>"))
        #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
    }
}
