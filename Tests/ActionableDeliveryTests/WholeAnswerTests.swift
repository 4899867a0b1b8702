import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Testing

@testable import ActionableDelivery

/// The forwarder reads an answer's body without a timer of its own only when the head says, in
/// HTTP/1, that no body follows; every other body is read within what is left of the deadline.
struct WholeAnswerTests {
    private func reply(_ version: HTTPVersion, _ status: HTTPResponseStatus, _ headers: [(String, String)] = []) -> HTTPClientResponse {
        HTTPClientResponse(version: version, status: status, headers: HTTPHeaders(headers))
    }

    @Test func onlyAnHTTP1HeadThatEndsTheMessageIsWhole() {
        #expect(Forwarder.isWhole(reply(.http1_1, .noContent)))
        #expect(Forwarder.isWhole(reply(.http1_1, .notModified, [("Transfer-Encoding", "chunked")])))
        #expect(Forwarder.isWhole(reply(.http1_0, .ok, [("Content-Length", "0")])))
        #expect(!Forwarder.isWhole(reply(.http1_1, .ok, [("Content-Length", "0"), ("Transfer-Encoding", "chunked")])))
        #expect(!Forwarder.isWhole(reply(.http1_1, .ok, [("Content-Length", "5")])))
        #expect(!Forwarder.isWhole(reply(.http1_1, .ok)))  // no length: the body runs until the connection closes
        #expect(!Forwarder.isWhole(reply(.http1_1, .accepted, [("Content-Length", "00")])))
        // HTTP/2 ends a message only with END_STREAM: a 204's head may come without it, then silence.
        #expect(!Forwarder.isWhole(reply(.http2, .noContent)))
        #expect(!Forwarder.isWhole(reply(.http2, .ok, [("content-length", "0")])))
    }

    @Test func theTimeLeftIsNeverMoreThanTheDeadlineAllows() {
        let deadline = NIODeadline.uptimeNanoseconds(5_000_000_000)
        #expect(Forwarder.left(until: deadline, now: .uptimeNanoseconds(3_000_000_000)) == .seconds(2))
        #expect(Forwarder.left(until: deadline, now: deadline) == .zero)
        // A reader that resumes after the deadline gets no time at all, not a wrap-around to "forever".
        #expect(Forwarder.left(until: deadline, now: .uptimeNanoseconds(5_000_000_001)) == .zero)
        #expect(Forwarder.left(until: deadline, now: .uptimeNanoseconds(UInt64(Int64.max))) == .zero)
    }
}
