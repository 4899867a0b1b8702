import ActionableCore
import ActionableTestSupport
import ActionableTokens
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `actionable serve` process, tried as an attacker would: every route with malformed
/// forms and JSON, hostile headers, unknown methods, truncated, oversize and deeply nested
/// bodies. Each answer is a 4xx (or the documented 503) — a problem document where there is a
/// body the server wrote — or the connection closed for bytes that are not HTTP; and after
/// each, a genuine tap still gets 202 from the same process.
@Suite(.serialized)
struct HostileRequestTests {
    static let admin = "hostile-admin-token-0123456789abcdef"
    static let backend = "hostile-backend-token-0123456789abcdef"

    static let paths = [
        "/v1/actions", "/v1/categories", "/healthz", "/readyz", "/metrics", "/openapi.json", "/v1/notifications",
        "/v1/badge/read", "/v1/badge/alice", "/v1/actions/x", "/v1/deliveries", "/v1/deliveries/x/retry", "/v1/deliveries/retry",
        "/admin", "/admin/session", "/admin/logout", "/admin/deliveries/x/retry", "/nowhere", "/v1/actions/%zz", "/%",
    ]

    /// One hostile request: raw bytes after the path is chosen.
    struct Attack: Sendable {
        var name: String
        var bytes: @Sendable (String) -> [UInt8]
    }

    static func request(_ method: String, _ path: String, headers: [String] = [], body: [UInt8] = [], length: Int? = nil) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(length ?? body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    static let attacks: [Attack] = {
        let form = "Content-Type: application/x-www-form-urlencoded"
        let json = "Content-Type: application/json"
        var attacks: [Attack] = []
        for body in ["token=%", "token=%zz", "token=a b\"<>", "token=a&token=b", "csrf[x]=1&token=%E2%82"] {
            attacks.append(Attack(name: "form \(body)") { request("POST", $0, headers: [form], body: Array(body.utf8)) })
        }
        attacks.append(Attack(name: "form with NUL and non-UTF-8") { request("POST", $0, headers: [form], body: [0x74, 0x3D, 0x00, 0xFF, 0xC3]) })
        for body in ["{", "{\"category\":", "[]", "null", "{\"category\":1,\"action\":[]}", "\u{0}\u{1}", "{\"payload\":{\"a\":1e999999}}"] {
            attacks.append(Attack(name: "json \(body.debugDescription)") { request("POST", $0, headers: [json], body: Array(body.utf8)) })
        }
        attacks.append(
            Attack(name: "json nested 100000 deep") {
                request("POST", $0, headers: [json], body: Array(repeating: UInt8(ascii: "["), count: 100_000))
            })
        attacks.append(
            Attack(name: "oversize body") { request("POST", $0, headers: [json], body: Array(repeating: UInt8(ascii: " "), count: 300_000)) })
        attacks.append(Attack(name: "truncated body") { request("POST", $0, headers: [json], body: Array("{\"cat".utf8), length: 500) })
        attacks.append(Attack(name: "declared 1 GB") { request("POST", $0, headers: [json], body: Array("{}".utf8), length: 1 << 30) })
        for method in ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "FOO", "GET", "HEAD"] {
            attacks.append(Attack(name: "method \(method)") { request(method, $0) })
        }
        for header in [
            "Authorization: Bearer ", "Authorization: Bearer \(String(repeating: "A", count: 8000))", "Authorization: Basic Zm9vOmJhcg==",
            "Authorization: Bearer a.b.c", "Cookie: actionable_admin=1.2.3; actionable_admin=%zz", "Cookie: =;;==",
            "Content-Type: application/json; charset=\u{7F}", "Content-Type: ", "If-None-Match: \"\u{1}\"",
            "X-Big: \(String(repeating: "b", count: 70_000))",
        ] {
            attacks.append(Attack(name: "header \(header.prefix(40))") { request("POST", $0, headers: [header, json], body: Array("{}".utf8)) })
        }
        attacks.append(Attack(name: "bad Content-Length") { Array("POST \($0) HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n{}".utf8) })
        attacks.append(
            Attack(name: "two Content-Lengths") { Array("POST \($0) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{}".utf8) })
        attacks.append(
            Attack(name: "bad chunk") { Array("POST \($0) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n".utf8) })
        attacks.append(Attack(name: "not HTTP") { _ in Array("\u{16}\u{03}\u{01}\u{02}\u{00}hello\r\n\r\n".utf8) })
        attacks.append(Attack(name: "HTTP/0.9") { Array("GET \($0)\r\n\r\n".utf8) })
        return attacks
    }()

    @Test(.timeLimit(.minutes(5)))
    func noRequestStopsOrFoolsTheServer() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let tokens = try await ActionTokens(keys: [key])
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: ["--storage", "sqlite:hostile.sqlite", "--admin-token", Self.admin, "--backend-token", Self.backend, "--max-body-size", "4096"])
        defer { server.signal() }

        var answered = 0
        var tap = 0
        for path in Self.paths {
            for attack in Self.attacks {
                let connection = try RawConnection(port: port)
                connection.send(attack.bytes(path))
                connection.finishSending()
                if let response = await connection.readResponse() {
                    answered += 1
                    #expect(response.status < 500 || response.status == 503, "\(attack.name) \(path): \(response.status)")
                    // (A HEAD answer has the headers of the GET answer and no body.)
                    if response.headers["content-type"] == "application/problem+json" && !attack.name.hasSuffix("HEAD") {
                        let problem = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                        #expect(problem?["status"] as? Int == response.status, "\(attack.name) \(path)")
                        #expect((problem?["type"] as? String)?.hasPrefix("https://actionable.dev/problems/") == true)
                        #expect(problem?["title"] is String && problem?["detail"] is String)
                    }
                }
                // The same process, still serving: a genuine tap is accepted.
                tap += 1
                let token = try await tokens.mint(
                    user: "alice", notificationID: "n-hostile-\(tap)", category: "invite", payload: ActionsEndpointTests.inviteDigest("42"))
                let body = #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#
                let (status, _) = try await ServeProcessTests.post(body, port: port)
                #expect(status == 202, "after \(attack.name) \(path)")
            }
        }
        #expect(answered > Self.paths.count * Self.attacks.count / 2)
        #expect(server.terminationReason == nil)
        // Nothing a hostile request sent was stored: only the genuine taps.
        var stored = 0
        var cursor: String?
        repeat {
            let (status, page) = try await Self.get("/v1/deliveries?limit=100" + (cursor.map { "&cursor=\($0)" } ?? ""), port: port)
            try #require(status == 200)
            stored += (page["items"] as? [Any])?.count ?? 0
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        #expect(stored == tap)
    }

    /// Guessing the admin token through the sign-in form of a real process: five wrong tokens,
    /// then 429 with Retry-After — for the right token too, until the minute is over — and no
    /// session cookie.
    @Test(.timeLimit(.minutes(1)))
    func guessingTheAdminTokenIsThrottled() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--storage", "memory:", "--admin-token", Self.admin])
        defer { server.signal() }
        func signIn(_ token: String) async throws -> (status: Int, headers: [String: String])? {
            let connection = try RawConnection(port: port)
            connection.send(
                Self.request(
                    "POST", "/admin/session", headers: ["Content-Type: application/x-www-form-urlencoded"], body: Array("token=\(token)".utf8)))
            return await connection.readResponse().map { ($0.status, $0.headers) }
        }
        for guess in 0..<5 { #expect(try await signIn("guess-\(guess)")?.status == 401) }
        let throttled = try #require(try await signIn(Self.admin))
        #expect(throttled.status == 429)
        #expect(Int(throttled.headers["retry-after"] ?? "") ?? 0 > 0)
        #expect(throttled.headers["set-cookie"] == nil)
        #expect(server.terminationReason == nil)
    }

    static func get(_ path: String, port: Int) async throws -> (Int, [String: Any]) {
        let answer = try await LoopbackCall.send(path, port: port, bearer: admin)
        return (answer.status, answer.json)
    }
}
