import ActionableTokens
import HTTPTypes

/// Every problem type the server answers with, each once: the end of its `type` URI, its title
/// and its status. A title belongs to the type (RFC 9457), so two routes answering the same type
/// say the same; what differs goes into the problem's `detail`.
struct ProblemType: Hashable, Sendable {
    /// The end of the `type` URI: `https://actionable.dev/problems/<name>`.
    let name: String
    /// The same for every problem of the type.
    let title: String
    /// The status every problem of the type has.
    let status: HTTPResponse.Status

    init(_ name: String, _ title: String, _ status: HTTPResponse.Status) {
        self.name = name
        self.title = title
        self.status = status
    }

    // MARK: Requests that cannot be read

    static let invalidJSON = ProblemType("invalid-json", "Invalid JSON", .badRequest)
    static let invalidRequest = ProblemType("invalid-request", "Invalid request", .badRequest)
    static let incompleteBody = ProblemType("incomplete-body", "Incomplete body", .badRequest)
    static let bodyTooLarge = ProblemType("body-too-large", "Body too large", .contentTooLarge)
    static let unsupportedMediaType = ProblemType("unsupported-media-type", "Unsupported media type", .unsupportedMediaType)
    static let invalidForm = ProblemType("invalid-form", "Invalid form", .badRequest)
    static let notFound = ProblemType("not-found", "Not found", .notFound)
    static let methodNotAllowed = ProblemType("method-not-allowed", "Method not allowed", .methodNotAllowed)

    // MARK: Credentials

    static let adminToken = ProblemType("admin-token", "Admin token required", .unauthorized)
    static let appTokenMissing = ProblemType("app-token-missing", "App token missing", .unauthorized)
    static let credentialsMissing = ProblemType("credentials-missing", "Credentials missing", .unauthorized)
    static let credentialsInvalid = ProblemType("credentials-invalid", "Invalid credentials", .unauthorized)
    static let tokenMissing = ProblemType("token-missing", "Action token missing", .unauthorized)
    static let tokenUnbound = ProblemType("token-unbound", "Action token without payload binding", .unauthorized)
    static let otherUser = ProblemType("other-user", "Another user's badge", .forbidden)
    static let backendOnly = ProblemType("backend-only", "Backend only", .forbidden)
    static let appOnly = ProblemType("app-only", "App only", .forbidden)

    /// An action token refused for `code`: 401 when it is not valid, 403 when it is valid but
    /// does not cover the response.
    static func token(_ code: ActionTokenError.Code, status: Int) -> ProblemType {
        status == 401
            ? ProblemType("token-\(code)", "Invalid action token", .unauthorized)
            : ProblemType("token-\(code)", "Action token does not cover this response", .forbidden)
    }

    /// The app's own bearer token refused for `code`.
    static func appToken(_ code: String) -> ProblemType { ProblemType("app-token-\(code)", "Invalid app token", .unauthorized) }

    // MARK: Answers the catalog or the ledger refuse

    static let catalogMismatch = ProblemType("catalog-mismatch", "Does not fit the catalog", .unprocessableContent)
    static let payloadMismatch = ProblemType("payload-mismatch", "The payload is not the one that was sent", .unprocessableContent)
    static let alreadyAnswered = ProblemType("already-answered", "The notification was already answered", .conflict)
    static let notificationOfAnotherUser = ProblemType("notification-of-another-user", "Recorded for another user", .conflict)
    static let endpointExists = ProblemType("endpoint-exists", "The endpoint exists", .conflict)
    static let deliveryPending = ProblemType("delivery-pending", "The response is pending", .conflict)
    static let notificationRefused = ProblemType("notification-refused", "APNs would refuse the notification", .unprocessableContent)
    static let sendingOff = ProblemType("sending-off", "This server does not send notifications", .notImplemented)

    // MARK: The server

    static let overloaded = ProblemType("overloaded", "Too many requests", .tooManyRequests)
    static let tooManyDevices = ProblemType("too-many-registrations", "Too many device registrations", .tooManyRequests)
    static let storageUnavailable = ProblemType("storage-unavailable", "Storage is unavailable", .serviceUnavailable)
    static let noDocument = ProblemType("no-document", "No document", .internalServerError)
    static let internalError = ProblemType("internal-error", "Internal error", .internalServerError)

    /// The type of one of Hummingbird's or NIO's errors with `status`: one of the above, or
    /// `http-<code>` titled with the status's reason phrase.
    static func http(_ status: HTTPResponse.Status) -> ProblemType {
        switch status.code {
        case 400: invalidRequest
        case 404: notFound
        case 405: methodNotAllowed
        case 413: bodyTooLarge
        case 415: unsupportedMediaType
        default: ProblemType("http-\(status.code)", status.reasonPhrase, status)
        }
    }
}
