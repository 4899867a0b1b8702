import ActionableCore
import ActionableWire
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
    static let typeBase = ProblemDocument.typeBase

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

    /// The problem's document (`ActionableWire`'s ``ProblemDocument``, as clients read it).
    var document: ProblemDocument {
        ProblemDocument(
            type: type, title: title, status: Int(status.code), detail: detail,
            errors: errors.map { ProblemDocument.FieldError(pointer: $0.pointer, detail: $0.detail) })
    }

    var response: Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        let body = (try? ResponseBodies.encoder.encode(document)) ?? Data()  // encoding strings and an integer cannot fail
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
