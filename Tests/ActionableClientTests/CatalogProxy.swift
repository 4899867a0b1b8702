import ActionableTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Between an app and a real `serve` (or in place of it): passes `GET /v1/categories` on and
/// records what the app sent (`If-None-Match`) and what it got, or answers what a test scripts
/// — the bodies, statuses and headers a broken server or a proxy gives.
actor CatalogProxy {
    struct Exchange: Sendable {
        var ifNoneMatch: String?
        var status: Int
    }

    struct Scripted: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        /// Sent in 16 KiB chunks without a Content-Length (chunked), so only the bytes tell its size.
        var chunked = false
    }

    private(set) var exchanges: [Exchange] = []
    private var upstream: Int?
    private var script: [Scripted] = []

    /// Passes requests to `serve` on `port` (nil: nothing listens — the proxy answers 502).
    func pass(to port: Int?) { upstream = port }

    /// Answers `answers` in order instead of passing requests on.
    func answer(_ answers: Scripted...) { script.append(contentsOf: answers) }

    fileprivate func take(ifNoneMatch: String?) async -> Scripted {
        let answer: Scripted
        if !script.isEmpty {
            answer = script.removeFirst()
        } else if let upstream {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(upstream)/v1/categories")!)
            if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
            if let (data, response) = try? await URLSession.shared.data(for: request), let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in http.allHeaderFields where name.lowercased() != "content-length" {
                    headers[name] = value
                }
                answer = Scripted(status: http.statusCode, headers: headers, body: data)
            } else {
                answer = Scripted(status: 502, headers: [:], body: Data("no upstream".utf8))
            }
        } else {
            answer = Scripted(status: 502, headers: [:], body: Data("no upstream".utf8))
        }
        exchanges.append(Exchange(ifNoneMatch: ifNoneMatch, status: answer.status))
        return answer
    }

    /// Runs `body` with the proxy live on a free port of loopback.
    static func run(_ body: @escaping @Sendable (CatalogProxy, Int) async throws -> Void) async throws {
        let proxy = CatalogProxy()
        let router = Router()
        router.get("/v1/categories") { request, _ -> Response in
            let answer = await proxy.take(ifNoneMatch: request.headers[.ifNoneMatch])
            var fields = HTTPFields()
            for (name, value) in answer.headers { fields[HTTPField.Name(name)!] = value }
            guard answer.chunked else {
                return Response(status: .init(code: answer.status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(data: answer.body)))
            }
            let body = answer.body
            return Response(
                status: .init(code: answer.status), headers: fields,
                body: ResponseBody { writer in
                    var offset = 0
                    while offset < body.count {
                        let end = min(offset + 16 * 1024, body.count)
                        try await writer.write(ByteBuffer(data: body[offset..<end]))
                        offset = end
                    }
                    try await writer.finish(nil)
                })
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(proxy, try #require(client.port))
        }
    }
}
