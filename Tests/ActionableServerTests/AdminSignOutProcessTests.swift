import ActionableTestSupport
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Signing out of the admin page ends the session for every instance and survives a kill -9:
/// the sign-out is in storage before the answer. (The cookie is signed, not stored: before, a
/// copy of it and its CSRF token kept pausing endpoints for 8 hours after sign-out.)
@Suite(.timeLimit(.minutes(2)))
struct AdminSignOutProcessTests {
    static let admin = DeliveriesProcessTests.admin
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    /// One request with `cookie`, without following a redirect or keeping a cookie.
    static func call(
        _ client: HTTPClient, _ method: HTTPMethod, _ path: String, port: Int, cookie: String? = nil, form: String? = nil
    ) async throws -> (status: Int, setCookie: String?, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        if let cookie { request.headers.add(name: "Cookie", value: "actionable_admin=\(cookie)") }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers["Set-Cookie"].first, String(buffer: body))
    }

    /// Signs in through the form, reads the page's CSRF token, signs out; the old cookie and token.
    static func signInAndOut(_ client: HTTPClient, port: Int) async throws -> (cookie: String, csrf: String) {
        let signedIn = try await call(client, .POST, "/admin/session", port: port, form: "token=\(admin)")
        #expect(signedIn.status == 303)
        let cookie = try #require(signedIn.setCookie?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let page = try await call(client, .GET, "/admin", port: port, cookie: cookie)
        let csrf = try #require(page.body.components(separatedBy: #"name="csrf" value=""#).dropFirst().first?.components(separatedBy: "\"").first)
        let out = try await call(client, .POST, "/admin/logout", port: port, cookie: cookie, form: "csrf=\(csrf)")
        #expect(out.status == 303 && out.setCookie?.contains("Max-Age=0") == true)
        return (cookie, csrf)
    }

    /// What a replayed cookie gets: the sign-in page, and no pause.
    static func expectRefused(_ client: HTTPClient, cookie: String, csrf: String, port: Int) async throws {
        let page = try await call(client, .GET, "/admin", port: port, cookie: cookie)
        #expect(page.body.contains(#"action="/admin/session""#) && !page.body.contains("count-dead"))
        let pause = try await call(client, .POST, "/admin/endpoints/crm/pause", port: port, cookie: cookie, form: "csrf=\(csrf)")
        #expect(pause.status == 401)
        let endpoint = try await LoopbackCall.send("/v1/endpoints/crm", port: port, bearer: admin).json
        #expect(endpoint["paused"] as? Bool == false, "\(endpoint)")
    }

    /// SQLite: signed out, the server killed (-9) and started again on the same file.
    @Test func aSignOutSurvivesAKill() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", Self.admin, "--forward-secret", Self.secret])
        let created = try await LoopbackCall.send(
            "/v1/endpoints", method: "POST", port: port, bearer: Self.admin,
            json: #"{"id":"crm","url":"http://127.0.0.1:9/hook","filter":["invite.*"]}"#)
        #expect(created.status == 201)
        let (cookie, csrf) = try await Self.signInAndOut(client, port: port)
        server.signal(SIGKILL)
        _ = await server.exit()
        let again = try ServeProcessTests.freePort()
        let restarted = try await ServerProcess.serve(
            in: directory, port: again, extra: ["--admin-token", Self.admin, "--forward-secret", Self.secret])
        defer { restarted.signal() }
        try await Self.expectRefused(client, cookie: cookie, csrf: csrf, port: again)
        try await client.shutdown()
    }

    /// PostgreSQL: signed out on one instance, refused by the other, also once the first is killed.
    @Test func aSignOutOnOneInstanceIsRefusedByTheOther() async throws {
        let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let extra = ["--storage", url, "--admin-token", Self.admin, "--forward-secret", Self.secret]
        let ports = try [ServeProcessTests.freePort(), ServeProcessTests.freePort()]
        let first = try await ServerProcess.serve(in: directory, port: ports[0], extra: extra)
        let second = try await ServerProcess.serve(in: directory, port: ports[1], extra: extra)
        defer { second.signal() }
        let created = try await LoopbackCall.send(
            "/v1/endpoints", method: "POST", port: ports[0], bearer: Self.admin,
            json: #"{"id":"crm","url":"http://127.0.0.1:9/hook","filter":["invite.*"]}"#)
        #expect(created.status == 201)
        let (cookie, csrf) = try await Self.signInAndOut(client, port: ports[0])
        first.signal(SIGKILL)
        _ = await first.exit()
        try await Self.expectRefused(client, cookie: cookie, csrf: csrf, port: ports[1])
        try await client.shutdown()
    }
}
