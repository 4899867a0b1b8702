import ActionableCore
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// How the server writes the JSON bodies it answers with. Each body is one `Codable` type of
/// `ActionableWire`, named as in `openapi.yaml`, which the app's client and the command line read
/// back (`OpenAPIContractTests` and `scripts/check_openapi.py` hold every answer to that
/// document).
enum ResponseBodies {
    /// The encoder of every answer: slashes as they are (`https://…`, not `https:\\/\\/…`).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    /// `body` as an `application/json` response with `status`.
    static func response(_ body: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(body))))
    }
}

extension ActionAnswer {
    /// The answer as a response, written without a `JSONEncoder`: it is on every accept's path,
    /// and its two strings are all there is to write (`ResponseBodiesTests` holds it to the
    /// encoder's output).
    func response(status code: HTTPResponse.Status) -> Response {
        var text = "{\"id\":"
        JSONValue.writeString(id, to: &text)
        text += ",\"status\":"
        JSONValue.writeString(status, to: &text)
        text += "}"
        return Response(
            status: code, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}

extension StoredResponse {
    /// `GET /v1/actions/{id}` for `action`.
    init(_ action: AcceptedResponse) {
        self.init(
            id: action.id, status: action.status.rawValue, attempts: action.attempts,
            nextAttemptAt: action.nextAttemptAt.timeIntervalSince1970, lastError: action.lastError,
            category: action.response.category.rawValue, action: action.response.action.rawValue,
            notificationId: action.response.notificationID, user: action.response.user,
            receivedAt: action.receivedAt.timeIntervalSince1970)
    }
}

extension ListedResponse {
    /// An item of `GET /v1/deliveries` for `action`: `nextAttemptAt` only while it is pending.
    init(_ action: AcceptedResponse) {
        self.init(
            id: action.id, category: action.response.category.rawValue, action: action.response.action.rawValue,
            notificationId: action.response.notificationID, user: action.response.user, state: action.status.rawValue,
            attempts: action.attempts, lastError: action.lastError, receivedAt: action.receivedAt.timeIntervalSince1970,
            nextAttemptAt: action.status == .pending ? action.nextAttemptAt.timeIntervalSince1970 : nil)
    }
}
