import ActionableCore
import ActionableHTTP
import ActionableStore
import ActionableTokens
import Foundation
import FuzzSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

// The whole HTTP application of `actionable serve`, driven in process through its router: a
// generated method, path, headers and body per input. No input may crash it, and every answer
// must be a status the contract allows — no 5xx but the documented 503 — with a JSON body that
// parses, and a problem document shaped as RFC 9457 says. With ACTIONABLE_FUZZ_RESPONSES=FILE,
// every JSON answer is also appended to FILE (one JSON line each) for
// scripts/check_fuzz_responses.py to validate against openapi.yaml.
//
// Input: byte 0 picks the method, byte 1 the path (a known route, or the input's first line),
// byte 2 the credentials (admin, backend, app JWT bearer; content types); then header lines
// up to an empty line, then the body. `$TOKEN` in the body becomes a valid action token for
// alice's notification n-1 of invite, bound to the payload {"inviteId":"42"}.

let key = try! ActionTokenKey(parsing: "k1=fuzz-key-number-one-0123456789abcdef")
let appKey = try! ActionTokenKey(parsing: "app=fuzz-app-key-0123456789abcdef012345")
let admin = "fuzz-admin-token-0123456789abcdefghij"
let backend = "fuzz-backend-token-0123456789abcdefgh"
let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .head, .patch, .options, .trace, .connect]
let paths = [
    "/v1/actions", "/v1/categories", "/healthz", "/readyz", "/metrics", "/openapi.json", "/v1/notifications", "/v1/badge/read",
    "/v1/badge/alice", "/v1/actions/x", "/v1/deliveries", "/v1/deliveries/x/retry", "/v1/deliveries/retry", "/admin",
    "/admin/session", "/admin/logout", "/admin/deliveries/x/retry", "/v1/send", "/v1/notifications/n-1", "/v1/devices",
    "/v1/devices/alice", "/v1/endpoints", "/v1/endpoints/crm", "/v1/endpoints/crm/pause", "/v1/endpoints/crm/resume",
    "/admin/endpoints/crm/pause",
]

final class Harness: @unchecked Sendable {
    var responder: Router<ActionableRequestContext>.Responder
    var token = ""
    var appJWT = ""
    var runs = 0
    let dump: FileHandle?
    /// One channel for every request's context (a channel per request would be a reference
    /// cycle until closed, which LeakSanitizer reports).
    let channel = NIOAsyncTestingChannel()

    init() {
        responder = Harness.makeResponder()
        let path = ProcessInfo.processInfo.environment["ACTIONABLE_FUZZ_RESPONSES"]
        if let path {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            dump = FileHandle(forWritingAtPath: path)
        } else {
            dump = nil
        }
    }

    /// A fresh server: in-memory storage (replaced every 5,000 runs, so that it cannot grow
    /// without bound), the example catalog, every optional endpoint on.
    static func makeResponder() -> Router<ActionableRequestContext>.Responder {
        let settings = ServerSettings(maximumBodySize: 4096, adminToken: admin, backendToken: backend)
        nonisolated(unsafe) var built: Router<ActionableRequestContext>.Responder?
        blocking {
            let tokens = try? await ActionTokens(keys: [key])
            let appTokens = await AppTokens(keys: [appKey])
            let router = ActionableRoutes.router(
                catalog: exampleCatalog, store: InMemoryActionStore(), tokens: tokens, settings: settings, metrics: nil,
                exposition: { "" }, appTokens: appTokens, sendSignal: SendSignal())
            built = router.buildResponder()
        }
        return built!
    }
}

let harness = Harness()
let quietLogger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

func setUp() {
    guard harness.token.isEmpty else { return }
    blocking {
        let tokens = try! await ActionTokens(keys: [key])
        let schema = exampleCatalog["invite"]!.payload
        harness.token = try! await tokens.mint(
            user: "alice", notificationID: "n-1", category: "invite", payload: PayloadDigest(payload: [("inviteId", .string("42"))], schema: schema))
        harness.appJWT = try! await AppTokens(keys: [appKey]).mint(user: "alice", keyID: "app")
    }
}

/// Collects a response body.
struct Collector: ResponseBodyWriter {
    final class Box: @unchecked Sendable { var buffer = ByteBuffer() }
    let box = Box()
    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        box.buffer.writeBuffer(&buffer)
    }
    func finish(_ headers: HTTPFields?) async throws {}
}

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    setUp()
    harness.runs += 1
    if harness.runs % 5000 == 0 { harness.responder = Harness.makeResponder() }
    var input = bytes(data, count)[...]
    guard input.count >= 3 else { return 0 }
    let method = methods[Int(input.removeFirst()) % methods.count]
    let pathChoice = Int(input.removeFirst())
    let flags = input.removeFirst()
    var path: String
    if pathChoice < paths.count {
        path = paths[pathChoice]
    } else {
        let line = input.prefix { $0 != UInt8(ascii: "\n") }
        input = input.dropFirst(line.count + 1)
        path = String(decoding: line, as: UTF8.self)
        if !path.hasPrefix("/") { path = "/" + path }
    }
    var headers = HTTPFields()
    if flags & 1 != 0 { headers[.authorization] = "Bearer \(admin)" }
    if flags & 2 != 0 { headers[.authorization] = "Bearer \(backend)" }
    if flags & 4 != 0 { headers[.authorization] = "Bearer \(harness.appJWT)" }
    if flags & 8 != 0 { headers[.contentType] = "application/json" }
    if flags & 16 != 0 { headers[.contentType] = "application/x-www-form-urlencoded" }
    // Header lines up to an empty line.
    while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: input[..<newline], as: UTF8.self)
        input = input[input.index(after: newline)...]
        if line.isEmpty { break }
        guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
        headers.append(HTTPField(name: name, value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    }
    var body = String(decoding: input, as: UTF8.self)
    if body.contains("$TOKEN") { body = body.replacingOccurrences(of: "$TOKEN", with: harness.token) }
    let buffer = ByteBuffer(string: body)
    if headers[.contentLength] == nil { headers[.contentLength] = String(buffer.readableBytes) }

    let request = Request(
        head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: headers),
        body: RequestBody(buffer: buffer))
    let responder = harness.responder
    let requestedPath = path
    blocking {
        let context = ActionableRequestContext(source: .init(channel: harness.channel, logger: quietLogger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = (try? error.response(from: request, context: context)) ?? Response(status: .internalServerError)
        } catch {
            fatalError("an error left the router without a response: \(error)")
        }
        let collector = Collector()
        try? await response.body.write(collector)
        check(method: method, path: requestedPath, routedPath: request.uri.path, response: response, body: collector.box.buffer)
    }
    return 0
}

func check(method: HTTPRequest.Method, path: String, routedPath: String, response: Response, body: ByteBuffer) {
    let status = Int(response.status.code)
    precondition(status < 500 || status == 503, "\(method) \(path) answered \(status): \(String(buffer: body))")
    guard method != .head, let type = response.headers[.contentType], type.hasPrefix("application/") && type.contains("json") else {
        return
    }
    let data = Data(body.readableBytesView)
    guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
        preconditionFailure("\(method) \(path) answered \(status) with a \(type) body that is not JSON: \(String(buffer: body))")
    }
    if type == "application/problem+json" {
        let problem = json as? [String: Any]
        precondition(problem?["status"] as? Int == status, "problem status differs: \(String(buffer: body))")
        precondition((problem?["type"] as? String)?.hasPrefix("https://actionable.dev/problems/") == true, "problem type")
        precondition(problem?["title"] is String && problem?["detail"] is String, "problem title and detail")
    }
    if let dump = harness.dump {
        let record: [String: Any] = [
            "method": method.rawValue, "path": path, "routedPath": routedPath, "status": status, "contentType": type, "body": json,
            // The segments as the router splits them: by Character, so a "/" followed by a combining
            // mark is not a separator (Python's str.split would count it as one).
            "routedSegments": routedPath.split(separator: "/").map(String.init),
        ]
        if let line = try? JSONSerialization.data(withJSONObject: record, options: [.fragmentsAllowed]) {
            dump.write(line + Data("\n".utf8))
        }
    }
}
