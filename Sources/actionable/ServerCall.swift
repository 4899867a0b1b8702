import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore

/// One request to a running `actionable serve`, as the commands that talk to it make them: a
/// refused connection fails at once (not retried until a timeout), and a server that cannot be
/// reached is a clear error naming the URL.
enum ServerCall {
    /// The methods the commands use.
    enum Method { case get, post }

    /// Sends `method path` with an optional JSON `body` and bearer `token`; returns the status and body.
    static func send(
        _ method: Method, _ path: String, to url: String, body: String? = nil, token: String? = nil
    ) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: (url.hasSuffix("/") ? String(url.dropLast()) : url) + path)
        request.method = method == .post ? .POST : .GET
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(5)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result: Result<(UInt, String), any Error>
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            result = .success((response.status.code, String(buffer: try await response.body.collect(upTo: 16 << 20))))
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        switch result {
        case .failure(let error): throw refuse("cannot reach \(url): \(error) (is actionable serve running there?)")
        case .success(let answer): return answer
        }
    }
}
