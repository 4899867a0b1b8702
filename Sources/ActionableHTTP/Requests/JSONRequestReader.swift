import ActionableCore
import Foundation
import Hummingbird

/// Reads a JSON request body the same way on every route: 415 unless it is
/// `application/json`, 413 past the limit (by `Content-Length` before reading, and while
/// reading), 400 with JSON pointers for what does not decode.
struct JSONRequestReader: Sendable {
    /// The largest body accepted, in bytes.
    let maximumBodySize: Int
    /// What the body is, for the 413's detail ("an action response").
    let what: String

    /// The body of `request`, decoded as `type`.
    func decode<Body: Decodable>(_ type: Body.Type, from request: Request) async throws -> Body {
        try checkContentType(request)
        return try decode(type, try await readBody(request))
    }

    private func checkContentType(_ request: Request) throws {
        guard let header = request.headers[.contentType] else { throw Self.unsupportedMediaType(nil) }
        if header == "application/json" { return }  // what nearly every client sends: no parsing
        let type = header.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/json" else { throw Self.unsupportedMediaType(header) }
    }

    /// The connection ended (or broke) before the body's declared end.
    static let incompleteBody = Problem(.incompleteBody, "the connection ended before the body's declared length was read")

    private static func unsupportedMediaType(_ header: String?) -> Problem {
        Problem(.unsupportedMediaType, "send the body as Content-Type: application/json (got \(header ?? "none"))")
    }

    /// Refuses by Content-Length before reading, and stops reading once past the limit.
    private func readBody(_ request: Request) async throws -> ByteBuffer {
        // Made only when thrown: its text costs an accept a few allocations.
        var tooLarge: Problem { Problem(.bodyTooLarge, "the body is over \(maximumBodySize) bytes, the limit for \(what)") }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodySize {
            throw tooLarge
        }
        var buffer = ByteBuffer()
        do {
            for try await part in request.body {
                guard buffer.readableBytes + part.readableBytes <= maximumBodySize else { throw tooLarge }
                var part = part
                buffer.writeBuffer(&part)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Self.incompleteBody
        }
        return buffer
    }

    private func decode<Body: Decodable>(_ type: Body.Type, _ body: ByteBuffer) throws -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw Self.problem(for: error)
        } catch {
            throw Problem(.invalidJSON, "the body is not valid JSON")
        }
    }

    /// A 400 naming the field at fault (a JSON pointer into the body), or 400 invalid-json.
    static func problem(for error: DecodingError) -> Problem {
        func pointer(_ path: [any CodingKey]) -> String {
            path.map { "/" + SourceMap.escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = pointer(context.codingPath + [key])
            return Problem(
                .invalidRequest, "\"\(key.stringValue)\" is required",
                errors: [(at, "required")])
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let at = pointer(context.codingPath)
            let expected = type == String.self ? "a string" : type == [String: JSONValue].self ? "an object" : "\(type)"
            return Problem(
                .invalidRequest, "\(at) must be \(expected)",
                errors: [(at, "must be \(expected)")])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return Problem(.invalidJSON, "the body is not valid JSON")
            }
            let at = pointer(context.codingPath)
            return Problem(
                .invalidRequest, "\(at): \(context.debugDescription)",
                errors: [(at, context.debugDescription)])
        @unknown default:
            return Problem(.invalidJSON, "the body is not valid JSON")
        }
    }
}
