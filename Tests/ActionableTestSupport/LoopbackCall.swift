public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP call to a server a test started on loopback: `METHOD path`, a bearer token (an
/// operator's admin token, a backend's or an app's), a JSON body, extra headers.
public enum LoopbackCall {
    /// A call's answer: its status and body (status 0 when no answer came).
    public struct Answer: @unchecked Sendable {
        public let status: Int
        public let body: Data
        /// The body read as a JSON object (empty when it is not one).
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// Sends the call and returns its answer; throws when no answer came.
    public static func send(
        _ path: String, method: String = "GET", port: Int, bearer: String? = nil, json: String? = nil, headers: [String: String] = [:]
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
