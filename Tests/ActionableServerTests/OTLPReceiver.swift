import ActionableTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationEssentialsCompat
import Testing

/// An OpenTelemetry collector on loopback for the tests: it takes OTLP/HTTP JSON exports on
/// `/v1/traces` (the server exports JSON when `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json`)
/// and keeps every span, waking whoever waits for one.
actor OTLPReceiver {
    /// A received span: ids as hex, kind as OTLP's number (2 server, 3 client), attributes as text.
    struct Span: Sendable {
        var traceID: String
        var spanID: String
        var parentSpanID: String
        var name: String
        var kind: Int
        var attributes: [String: String]
        /// OTLP's status code: 0 unset, 1 ok, 2 error.
        var statusCode: Int
    }

    private(set) var spans: [Span] = []
    private var waiters: [(condition: @Sendable ([Span]) -> Bool, continuation: CheckedContinuation<[Span], Never>)] = []

    fileprivate func take(_ body: Data) throws {
        let export = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        for resource in export["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] { spans.append(Self.span(span)) }
            }
        }
        waiters.removeAll { waiter in
            guard waiter.condition(spans) else { return false }
            waiter.continuation.resume(returning: spans)
            return true
        }
    }

    /// The spans received, once `condition` holds for them (``within(_:limit:_:)`` bounds it).
    func spans(until condition: @escaping @Sendable ([Span]) -> Bool) async throws -> [Span] {
        try await within("the spans expected") { await self.park(until: condition) }
    }

    private func park(until condition: @escaping @Sendable ([Span]) -> Bool) async -> [Span] {
        if condition(spans) { return spans }
        return await withCheckedContinuation { waiters.append((condition, $0)) }
    }

    /// Ids in OTLP JSON are either hex (the specification) or base64 (protobuf's JSON mapping of
    /// bytes); both are read as hex.
    static func hex(_ id: Any?) -> String {
        guard let text = id as? String, !text.isEmpty else { return "" }
        if text.count % 2 == 0, text.allSatisfy(\.isHexDigit), text.count == 16 || text.count == 32 { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func span(_ json: [String: Any]) -> Span {
        var attributes: [String: String] = [:]
        for attribute in json["attributes"] as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any] else { continue }
            attributes[key] = (value["stringValue"] as? String) ?? (value["intValue"].map { "\($0)" }) ?? "\(value)"
        }
        return Span(
            traceID: hex(json["traceId"]), spanID: hex(json["spanId"]), parentSpanID: hex(json["parentSpanId"]),
            name: json["name"] as? String ?? "", kind: json["kind"] as? Int ?? 0, attributes: attributes,
            statusCode: (json["status"] as? [String: Any])?["code"] as? Int ?? 0)
    }

    /// Runs `body` with the receiver live on a free port of loopback.
    static func run(_ body: @escaping @Sendable (OTLPReceiver, Int) async throws -> Void) async throws {
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            try await receiver.take(Data(buffer: body))
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(receiver, try #require(client.port)) }
    }
}
