import ActionableAPNsTesting
import ActionableTestSupport
import Foundation
import Testing

/// A send to APNs is a span of the trace of the `POST /v1/send` that recorded it, through a real
/// `serve` process exporting to a collector in the test process (OTLP/HTTP).
@Suite(.timeLimit(.minutes(3)))
struct SendTraceTests {
    @Test func anAPNsSendContinuesTheTraceOfTheRequestThatRecordedIt() async throws {
        try await SendHarness.run { harness in
            try await OTLPReceiver.run { receiver, receiverPort in
                let port = try ServerProcess.freePort()
                let server = try await ServerProcess.serve(
                    in: harness.directory, port: port, extra: harness.sendingFlags + ["--otel-endpoint", "http://127.0.0.1:\(receiverPort)"],
                    environment: ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "50"])
                defer { server.signal() }
                #expect(try await SendHarness.register(SendProcessTests.phone, user: "alice", port: port) == 201)
                let trace = "4bf92f3577b34da6a3ce929d0e0e4736"
                let caller = "00f067aa0ba902b7"
                let sent = try await SendHarness.call(
                    "POST", "/v1/send", port: port,
                    json: #"{"user":"alice","category":"invite","notificationId":"n-traced","alert":"Dinner?","payload":{"inviteId":"42"}}"#,
                    headers: ["traceparent": "00-\(trace)-\(caller)-01"])
                #expect(sent.status == 202)
                await harness.standIn.received.wait(untilDelivered: 1)

                let spans = try await receiver.spans { spans in
                    spans.contains { $0.name == "actionable.apns.send" && $0.attributes["actionable.outcome"] != nil }
                }
                let send = try #require(spans.first { $0.name == "actionable.apns.send" })
                let request = try #require(spans.first { $0.spanID == send.parentSpanID }, "the send's parent span was exported")
                #expect(send.traceID == trace && request.traceID == trace, "the send is in the caller's trace")
                #expect(request.parentSpanID == caller && request.kind == 2, "its parent is the server span of POST /v1/send")
                #expect(request.attributes["http.route"] == "/v1/send")
                #expect(send.kind == 3, "a client span")
                #expect(send.attributes["actionable.notification_id"] == "n-traced")
                #expect(send.attributes["actionable.outcome"] == "sent" && send.attributes["http.response.status_code"] == "200")
                #expect(send.statusCode != 2)
            }
        }
    }
}
