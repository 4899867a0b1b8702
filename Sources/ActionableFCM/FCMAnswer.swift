import ActionableWire
public import Foundation

/// What FCM answered a message, and what the sender does about it.
public enum FCMAnswer: Sendable, Hashable {
    /// 200: FCM took it, under `name` (`projects/{project}/messages/{id}`).
    case sent(name: String)
    /// The registration token is gone or not this project's: 404 `UNREGISTERED`, 400
    /// `INVALID_ARGUMENT` about the token, or 403 `SENDER_ID_MISMATCH` (the `status`). The device
    /// is unregistered.
    case unregistered(status: Int, reason: String)
    /// 401: the access token was refused. The sender gets a new one once and sends again.
    case unauthenticated
    /// 429 `QUOTA_EXCEEDED`, 503 `UNAVAILABLE`, 500 `INTERNAL` (and a proxy's 502, 504, 408): send
    /// again later, after `retryAfter` when FCM said (already bounded).
    case retry(reason: String, retryAfter: TimeInterval?)
    /// Anything else: the message is not sent, for `reason` (a message FCM refuses is a bug of the
    /// sender, never retried).
    case failed(status: Int, reason: String)

    /// The answer of `status` with `body` (FCM's `{"name"}`, or `{"error": {"status", "message",
    /// "details": [{"errorCode"}]}}`) and `retryAfter`.
    ///
    /// The body is a peer's: a field of the wrong type is left out, a text is cut to 200
    /// characters, and an unreadable body leaves only the status to go by.
    public init(status: Int, body: [UInt8], retryAfter: TimeInterval? = nil) {
        let document = try? JSONDecoder().decode(FCMDocument.self, from: Data(body))
        let code = document?.error?.errorCode
        let googleStatus = document?.error?.status.map { PeerText.printable($0, limit: 64) }
        let message = document?.error?.message.map { String($0.prefix(200)) }
        // The reason is logged and stored: FCM's text with its control characters escaped.
        let reason =
            [code.map { PeerText.printable($0, limit: 64) } ?? googleStatus, message.map { PeerText.printable($0) }].compactMap { $0 }
            .joined(separator: ": ").nonEmpty ?? "HTTP \(status)"
        let retryAfter = retryAfter.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        switch status {
        case 200..<300:
            self = .sent(name: document?.name.map { String($0.prefix(300)) } ?? "")
        case 401:
            self = .unauthenticated
        // Only FCM's own code unregisters: a 404 without it is a wrong URL, a proxy, a portal.
        case 404 where code == "UNREGISTERED":
            self = .unregistered(status: status, reason: reason)
        case 400 where code == "INVALID_ARGUMENT" && Self.isAboutTheToken(message):
            self = .unregistered(status: status, reason: reason)
        case 403 where code == "SENDER_ID_MISMATCH":
            self = .unregistered(status: status, reason: reason)
        case 429, 500, 503, 502, 504, 408:
            self = .retry(reason: reason, retryAfter: retryAfter)
        default:
            self = .failed(status: status, reason: reason)
        }
    }

    /// Whether an `INVALID_ARGUMENT`'s message is about the registration token (FCM answers that
    /// code for a malformed message as well, which is not the device's fault).
    static func isAboutTheToken(_ message: String?) -> Bool {
        guard let message = message?.lowercased() else { return false }  // nothing says it is the token
        return message.contains("registration token") || message.contains("registration-token") || message.contains("token is not")
    }
}

/// FCM's answer body, read leniently: a field of the wrong type is left out.
struct FCMDocument: Decodable {
    var name: String?
    var error: FCMError?

    struct FCMError: Decodable {
        var status: String?
        var message: String?
        var errorCode: String?

        enum CodingKeys: String, CodingKey { case status, message, details }

        struct Detail: Decodable {
            var errorCode: String?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                errorCode = try? container.decodeIfPresent(String.self, forKey: .errorCode)
            }
            enum CodingKeys: String, CodingKey { case errorCode }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try? container.decodeIfPresent(String.self, forKey: .status)
            message = try? container.decodeIfPresent(String.self, forKey: .message)
            let details = (try? container.decodeIfPresent([Detail].self, forKey: .details)) ?? nil
            errorCode = details?.lazy.compactMap(\.errorCode).first.map { String($0.prefix(64)) }
        }
    }

    enum CodingKeys: String, CodingKey { case name, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try? container.decodeIfPresent(String.self, forKey: .name)
        error = (try? container.decodeIfPresent(FCMError.self, forKey: .error)) ?? nil
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
