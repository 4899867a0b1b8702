import ActionableWire
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ActionReporter {
    /// Marks notifications read on the server (`POST /v1/badge/read`, authenticated with the
    /// app's own token from ``Options/bearerToken``) and answers the user's badge, to set as the
    /// app icon's number. The ids are the backend's notification ids: read them from a
    /// notification's action token with ``ActionReport/notificationID(inActionToken:)``.
    ///
    /// A tap the reporter sends marks its notification read by itself; call this for what the
    /// user read in the app. Reads are not kept in the report queue: a failed one throws, and the next
    /// push carries the server's number anyway.
    ///
    /// - Throws: ``ServerProblem`` for an error answer, or the network error.
    public func markRead(notificationIDs: [String]) async throws -> Int {
        try await badgeRead(["notificationIds": notificationIDs])
    }

    /// Marks every notification of the app's user read, as an app does when it clears its badge
    /// (`applicationIconBadgeNumber = 0`); answers the badge (0).
    public func markAllRead() async throws -> Int {
        try await badgeRead(["all": true])
    }

    private func badgeRead(_ body: [String: Any]) async throws -> Int {
        var request = URLRequest(
            url: serverURL("v1/badge/read"), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        if let token = try await currentBearerToken() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let answer = try await HTTPExchange.send(request, on: urlSession)
        guard answer.status == 200, let count = try? JSONDecoder().decode(BadgeCount.self, from: answer.body) else {
            throw ServerProblem(status: answer.status, body: answer.body)
        }
        return count.badge
    }
}

extension ActionReport {
    /// The backend's notification id (`jti`) of an action token, read without checking its
    /// signature (the server checks it): what ``ActionReporter/markRead(notificationIDs:)``
    /// takes. Nil if the token is not a JWT with a `jti`.
    public static func notificationID(inActionToken token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return claims["jti"] as? String
    }

    /// The backend's notification id of this report's action token.
    public var notificationID: String? { Self.notificationID(inActionToken: actionToken) }
}
