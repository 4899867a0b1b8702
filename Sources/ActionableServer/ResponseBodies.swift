import ActionableCore
import ActionableStore
import Foundation
import Hummingbird

/// The JSON bodies the server answers with, each one `Encodable` type named as in `openapi.yaml`
/// (`OpenAPIContractTests` and `scripts/check_openapi.py` hold every answer to that document).
/// Optional fields the contract requires as `null` are written as `null`, never left out.
enum ResponseBodies {
    /// `POST /v1/actions`: 202 `accepted` or 200 `duplicate` (`ActionAccepted`).
    struct ActionAccepted: Encodable {
        let id: String
        let status: String

        /// The answer, written without a `JSONEncoder`: it is on every accept's path, and its
        /// two strings are all there is to write.
        func response(status code: HTTPResponse.Status) -> Response {
            let text = JSONValue.object([("id", .string(id)), ("status", .string(status))]).serialized()
            return Response(
                status: code, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
    }

    /// `GET /v1/actions/{id}` (`StoredResponse`).
    struct StoredResponse: Encodable {
        let action: StoredAction

        enum Keys: String, CodingKey {
            case id, status, attempts, nextAttemptAt, lastError, category, action, notificationId, user, receivedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(action.id, forKey: .id)
            try container.encode(action.status.rawValue, forKey: .status)
            try container.encode(action.attempts, forKey: .attempts)
            try container.encode(action.nextAttemptAt.timeIntervalSince1970, forKey: .nextAttemptAt)
            try container.encode(action.lastError, forKey: .lastError)
            try container.encode(action.response.category.rawValue, forKey: .category)
            try container.encode(action.response.action.rawValue, forKey: .action)
            try container.encode(action.response.notificationID, forKey: .notificationId)
            try container.encode(action.response.user, forKey: .user)
            try container.encode(action.receivedAt.timeIntervalSince1970, forKey: .receivedAt)
        }
    }

    /// One item of `GET /v1/deliveries` (`Delivery`).
    struct Delivery: Encodable {
        let action: StoredAction

        enum Keys: String, CodingKey {
            case id, category, action, notificationId, user, state, attempts, lastError, receivedAt, nextAttemptAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(action.id, forKey: .id)
            try container.encode(action.response.category.rawValue, forKey: .category)
            try container.encode(action.response.action.rawValue, forKey: .action)
            try container.encode(action.response.notificationID, forKey: .notificationId)
            try container.encode(action.response.user, forKey: .user)
            try container.encode(action.status.rawValue, forKey: .state)
            try container.encode(action.attempts, forKey: .attempts)
            try container.encode(action.lastError, forKey: .lastError)
            try container.encode(action.receivedAt.timeIntervalSince1970, forKey: .receivedAt)
            try container.encode(action.status == .pending ? action.nextAttemptAt.timeIntervalSince1970 : nil, forKey: .nextAttemptAt)
        }
    }

    /// `GET /v1/deliveries` (`DeliveryPage`).
    struct DeliveryPage: Encodable {
        let items: [Delivery]
        let nextCursor: String?
    }

    /// `POST /v1/deliveries/{id}/retry`: 202, queued again.
    struct Requeued: Encodable {
        let id: String
        let state = "pending"
    }

    /// `POST /v1/deliveries/retry`: how many were queued again.
    struct RequeuedCount: Encodable {
        let queued: Int
    }

    /// The badge endpoints (`Badge`).
    struct Badge: Encodable {
        let badge: Int
    }

    private static let encoder: JSONEncoder = {
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
