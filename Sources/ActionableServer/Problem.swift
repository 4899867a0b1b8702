import ActionableCore
import Foundation
import HTTPTypes
import Hummingbird

/// An RFC 9457 problem: `application/problem+json` with `type`, `title`, `status`, `detail`
/// and, where fields are at fault, `errors: [{pointer, detail}]`.
///
/// Every error answer of the server is one: routes and middleware throw it, and Hummingbird
/// renders it through ``response(from:context:)``.
struct Problem: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var type: String
    var title: String
    var detail: String
    var errors: [(pointer: String, detail: String)] = []
    var headers: HTTPFields = [:]

    /// The base of the `type` URIs, which docs/http-api.md lists route by route.
    static let typeBase = "https://actionable.dev/problems/"

    /// A problem of `type` (its status and title from ``ProblemType``), with `detail`.
    init(_ type: ProblemType, _ detail: String, errors: [(pointer: String, detail: String)] = [], headers: HTTPFields = [:]) {
        self.status = type.status
        self.type = Self.typeBase + type.name
        self.title = type.title
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }

    var response: Response {
        var pairs: [(String, JSONValue)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .int(Int(status.code))),
            ("detail", .string(detail)),
        ]
        if !errors.isEmpty {
            pairs.append(("errors", .array(errors.map { .object([("pointer", .string($0.pointer)), ("detail", .string($0.detail))]) })))
        }
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: JSONValue.object(pairs).serialized())))
    }
}
