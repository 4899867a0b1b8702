import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a loopback port that sends exactly the bytes it is given — malformed
/// request lines, broken headers, truncated bodies — which no HTTP client library will send.
/// Reads are bounded by a receive timeout (a safety bound on a broken server, never a way to
/// wait for something).
public final class RawConnection: @unchecked Sendable {
    public let descriptor: Int32

    /// Connects to 127.0.0.1:`port` (from loopback address `source`, such as `127.0.0.2`, when
    /// given); reads give up after `readTimeout` seconds.
    public init(port: Int, readTimeout: Int = 30, from source: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
        setReadTimeout(readTimeout)
        let descriptor = descriptor
        if let source {
            let bound = ServerProcess.withLoopbackAddress(port: 0, host: source) { bind(descriptor, $0, $1) }
            guard bound == 0 else {
                close(descriptor)
                throw Failure("bind to \(source): errno \(errno)")
            }
        }
        let connected = ServerProcess.withLoopbackAddress(port: port) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            close(descriptor)
            throw Failure("connect to \(port): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// Reads give up after `seconds` from now on.
    public func setReadTimeout(_ seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `bytes`; false when the server closed the connection first.
    @discardableResult public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Closes the sending side (the server sees the end of the request's bytes).
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// Everything the server sends until it closes the connection (or the read timeout).
    public func readToEnd() async -> [UInt8] { await Self.offPool { self.readToEndBlocking() } }

    private func readToEndBlocking() -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return received }
            received += buffer[..<count]
        }
    }

    /// One response: status and body, read until its Content-Length is complete or the server
    /// closes; nil when the server closed without answering.
    public func readResponse() async -> (status: Int, headers: [String: String], body: [UInt8])? {
        await Self.offPool { self.readResponseBlocking() }
    }

    private func readResponseBlocking() -> (status: Int, headers: [String: String], body: [UInt8])? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let response = Self.parse(received) { return response }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return Self.parse(received, complete: true) }
            received += buffer[..<count]
        }
    }

    /// Whether the server closed (or reset) the connection before the read timeout: `false` when
    /// the read timed out with the connection still open.
    public func isClosedBeforeTimeout() async -> Bool { await Self.offPool { self.isClosedBeforeTimeoutBlocking() } }

    private func isClosedBeforeTimeoutBlocking() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
    }

    /// How many of `connections` the server closes (or resets) within `seconds`, watched all at
    /// once (`poll`), without reading what they are sent.
    public static func closedByServer(_ connections: [RawConnection], within seconds: Double) async -> Int {
        await offPool { closedByServerBlocking(connections, within: seconds) }
    }

    private static func closedByServerBlocking(_ connections: [RawConnection], within seconds: Double) -> Int {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var closed = Set<Int32>()
        while ContinuousClock.now < deadline && closed.count < connections.count {
            var descriptors = connections.filter { !closed.contains($0.descriptor) }.map {
                pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0)
            }
            let left = max(1, Int32((deadline - ContinuousClock.now).components.seconds * 1000 + 1))
            guard poll(&descriptors, nfds_t(descriptors.count), left) > 0 else { continue }
            for descriptor in descriptors where descriptor.revents != 0 {
                var byte: UInt8 = 0
                let count = recv(descriptor.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { closed.insert(descriptor.fd) }
            }
        }
        return closed.count
    }

    /// Whether the server has closed the connection: a read returns the end of the stream
    /// (or fails) within the read timeout.
    public func isClosedByServer() async -> Bool { await Self.offPool { self.isClosedByServerBlocking() } }

    private func isClosedByServerBlocking() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) <= 0
    }

    /// Every read waits on a thread of its own, never on one of Swift's cooperative pool (which
    /// the tests' in-process servers and clients need to make progress meanwhile).
    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.start()
        }
    }

    static func parse(_ bytes: [UInt8], complete: Bool = false) -> (status: Int, headers: [String: String], body: [UInt8])? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = head.first, statusLine.hasPrefix("HTTP/1."),
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(bytes[(end + 4)...])
        if let length = headers["content-length"].flatMap(Int.init) {
            return body.count >= length ? (status, headers, Array(body.prefix(length))) : (complete ? (status, headers, body) : nil)
        }
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            return complete || body.suffix(5) == [48, 13, 10, 13, 10] ? (status, headers, body) : nil
        }
        return (status, headers, body)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
