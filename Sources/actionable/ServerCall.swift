import ActionableWire
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One request to a running `actionable serve`, as the commands that talk to it make them: a
/// refused connection fails at once (not retried until a timeout), and a server that cannot be
/// reached is a clear error naming the URL.
enum ServerCall {
    /// The methods the commands use.
    enum Method { case get, post, delete }

    /// Sends `method path` with an optional JSON `body` and bearer `token`; returns the status and body.
    static func send(
        _ method: Method, _ path: String, to url: String, body: String? = nil, token: String? = nil
    ) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: (url.hasSuffix("/") ? String(url.dropLast()) : url) + path)
        switch method {
        case .get: request.method = .GET
        case .post: request.method = .POST
        case .delete: request.method = .DELETE
        }
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
            // Head and body within 30 s: a server that stalls its body does not hang the command.
            let request = request
            result = .success(
                try await withDeadline(.seconds(30), what: "the server's answer") {
                    let response = try await client.execute(request, timeout: .seconds(30))
                    return (response.status.code, String(buffer: try await response.body.collect(upTo: 16 << 20)))
                })
        } catch {
            result = .failure(error)
        }
        try? await client.shutdown()
        switch result {
        case .failure(let error): throw refuse("cannot reach \(url): \(error) (is actionable serve running there?)")
        case .success(let answer): return answer
        }
    }

    /// Sends as ``send(_:_:to:body:token:)`` and reads a 2xx answer as `Answer`; a problem
    /// answer is refused (exit 1) with its detail. Returns the status too (200 and 202 differ).
    static func json<Answer: Decodable>(
        _ method: Method, _ path: String, to url: String, body: String? = nil, token: String? = nil
    ) async throws -> (status: UInt, answer: Answer) {
        let (status, text) = try await send(method, path, to: url, body: body, token: token)
        guard (200..<300).contains(Int(status)) else { throw problem(status, text) }
        do {
            return (status, try JSONDecoder().decode(Answer.self, from: Data(text.utf8)))
        } catch {
            throw refuse("the server's answer is not a \(Answer.self): \(text.prefix(200))")
        }
    }

    /// The error of a non-2xx answer: its problem's detail, or the text.
    static func problem(_ status: UInt, _ text: String) -> any Error {
        let problem = try? JSONDecoder().decode(ProblemDocument.self, from: Data(text.utf8))
        return refuse("HTTP \(status): \(problem.map(\.detail) ?? text)")
    }

    /// `text` as one path segment.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
    }
}
