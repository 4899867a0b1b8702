import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An upstream on loopback that answers with exactly the bytes a test scripts — garbage status
/// lines, absurd headers, a head and then nothing, a body without end, a reset mid-body — which
/// no HTTP server library would send. Each request's `webhook-id` is recorded in arrival order.
///
/// The script is asked once per request with the request's `webhook-id` and how many times that
/// id arrived before; what it answers is done on that connection (``Behavior``).
public final class HostileUpstream: @unchecked Sendable {
    /// What to do with one request.
    public enum Behavior: Sendable {
        /// Write these bytes, then close the connection.
        case bytes([UInt8])
        /// Write these bytes, then keep the connection open, sending nothing more, until the
        /// upstream stops (a head and then a stall, or nothing at all).
        case stall([UInt8])
        /// Write this head, then body bytes without end until the peer goes away.
        case endless(head: [UInt8])
        /// Write these bytes, then reset the connection (RST, not FIN).
        case reset([UInt8])
        /// Write this head, then one body byte every `interval` seconds until the peer goes away:
        /// each read gets something, so only an overall deadline ends it.
        case trickle(head: [UInt8], interval: Double)
        /// Write these bytes, then keep the connection for the next request (keep-alive): an
        /// answer followed by a second one nobody asked for, say.
        case keepOpen([UInt8])

        /// A well-formed answer of `status` with `headers` and no body, then close.
        public static func answer(_ status: Int, headers: [(String, String)] = []) -> Behavior {
            var text = "HTTP/1.1 \(status) Scripted\r\nContent-Length: 0\r\nConnection: close\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            return .bytes(Array((text + "\r\n").utf8))
        }
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let script: @Sendable (_ webhookID: String, _ seen: Int) -> Behavior
    private struct State {
        var arrivals: [String] = []
        /// The `webhook-id`s whose scripted bytes were all written (a stall's head included).
        var answered: [String] = []
        var open: [Int32] = []
        var stopped = false
        var waiters: [(count: Int, id: String?, answered: Bool, continuation: CheckedContinuation<Void, Never>)] = []

        /// Resumes the waiters whose count is reached.
        mutating func resumeReady() {
            let arrivals = arrivals
            let answered = answered
            waiters.removeAll { waiter in
                let seen = waiter.answered ? answered : arrivals
                guard seen.filter({ waiter.id == nil || $0 == waiter.id }).count >= waiter.count else { return false }
                waiter.continuation.resume()
                return true
            }
        }
    }
    private let state = Mutex(State())

    /// Listens on a free loopback port and answers each request as `script` says.
    public init(script: @escaping @Sendable (_ webhookID: String, _ seen: Int) -> Behavior) throws {
        self.script = script
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw RawConnection.Failure("socket: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let listener = listener
        let bound = ServerProcess.withLoopbackAddress(port: 0) { bind(listener, $0, $1) }
        guard bound == 0, Glibc.listen(listener, 512) == 0 else {
            close(listener)
            throw RawConnection.Failure("bind/listen: errno \(errno)")
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Closes the listener and every connection (stalled ones included).
    public func stop() {
        let open = state.withLock { state -> [Int32] in
            guard !state.stopped else { return [] }
            state.stopped = true
            defer { state.open = [] }
            return state.open
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in open { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Every request's `webhook-id`, in arrival order.
    public var arrivals: [String] { state.withLock { $0.arrivals } }

    /// Returns once `count` requests arrived (with `webhook-id` `id`, when given); throws if they
    /// never do (``within(_:limit:_:)``).
    public func arrived(_ count: Int, id: String? = nil) async throws {
        try await within("\(count) requests\(id.map { " with webhook-id \($0)" } ?? "")") {
            await self.park(until: count, id: id, answered: false)
        }
    }

    /// Returns once `count` requests were answered, every byte of their scripted answer written
    /// (a request is counted by ``arrived(_:id:)`` before its answer is written, so stopping the
    /// upstream after `arrived` may cut an answer short).
    public func answered(_ count: Int, id: String? = nil) async throws {
        try await within("\(count) answers\(id.map { " to webhook-id \($0)" } ?? "")") {
            await self.park(until: count, id: id, answered: true)
        }
    }

    private func park(until count: Int, id: String?, answered: Bool) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                let seen = answered ? state.answered : state.arrivals
                if seen.filter({ id == nil || $0 == id }).count >= count { return true }
                state.waiters.append((count, id, answered, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func recordAnswered(_ webhookID: String) {
        state.withLock { state in
            state.answered.append(webhookID)
            state.resumeReady()
        }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.open.append(connection)
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            var noSignal: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_KEEPALIVE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            Thread { [self] in serve(connection) }.start()
        }
    }

    /// Reads one request (head and Content-Length body), answers as scripted.
    private func serve(_ connection: Int32) {
        defer {
            state.withLock { state in state.open.removeAll { $0 == connection } }
            close(connection)
        }
        while let webhookID = readRequest(connection) {
            guard answer(webhookID, on: connection) else { return }
        }
    }

    /// Answers one request as scripted; `true` when the connection takes another request.
    private func answer(_ webhookID: String, on connection: Int32) -> Bool {
        let seen = state.withLock { state -> Int in
            let seen = state.arrivals.filter { $0 == webhookID }.count
            state.arrivals.append(webhookID)
            state.resumeReady()
            return seen
        }
        switch script(webhookID, seen) {
        case .bytes(let bytes):
            if write(connection, bytes) { recordAnswered(webhookID) }
        case .stall(let bytes):
            if write(connection, bytes) { recordAnswered(webhookID) }
            // Held open, sending nothing, until the peer goes away or the upstream stops.
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
        case .endless(let head):
            guard write(connection, head) else { return false }
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
            while write(connection, chunk) {}
        case .trickle(let head, let interval):
            guard write(connection, head) else { return false }
            while state.withLock({ !$0.stopped }) {
                Thread.sleep(forTimeInterval: interval)  // the upstream's pace, not a test's synchronisation
                guard write(connection, [UInt8(ascii: " ")]) else { return false }
            }
        case .reset(let bytes):
            write(connection, bytes)
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .keepOpen(let bytes):
            guard write(connection, bytes) else { return false }
            recordAnswered(webhookID)
            return true
        }
        return false
    }

    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// The request's `webhook-id` (empty when it has none), once its head and body are read;
    /// `nil` when the connection ended first.
    private func readRequest(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let headEnd = received.firstRange(of: end) {
                let head = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
                var length = 0
                var webhookID = ""
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    switch parts[0].lowercased() {
                    case "content-length": length = Int(parts[1]) ?? 0
                    case "webhook-id": webhookID = parts[1]
                    default: break
                    }
                }
                if received.count - headEnd.upperBound >= length { return webhookID }
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received += buffer[..<count]
        }
    }
}
