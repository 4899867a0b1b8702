public import Foundation
import Synchronization

/// A child process (`actionable serve`, `invite-service`) whose output and exit a test awaits
/// without blocking a cooperative thread: two threads of its own block instead, one reading
/// the output, one waiting for the exit, and resume the waiters. Swift Testing's time limits
/// can then cancel a stuck test, and the cooperative pool (2 threads on this machine) never
/// starves. (Foundation's `readabilityHandler` is not used: cancelling its dispatch source on
/// end of file crashed libdispatch's event loop on Linux once in CI.)
public final class ServerProcess: Sendable {
    private struct State {
        var output = Data()
        var closed = false
        var status: Int32?
        var reason: Process.TerminationReason?
        var outputWaiters: [(text: String, times: Int, continuation: CheckedContinuation<String, any Error>)] = []
        var exitWaiters: [CheckedContinuation<Int32, Never>] = []
    }

    /// The state, shared with the two threads.
    private final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    nonisolated(unsafe) private let process: Process
    private let state = Shared()

    /// Starts `executable` with its output (stdout and stderr) collected, and `environment`
    /// added to this process's.
    public init(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        let state = self.state
        // The exit is learned from Foundation's termination handler: a thread blocked in
        // waitUntilExit() polls its run loop, which on Linux has no source, so it spins a core for
        // as long as the server runs (with several servers up, the rest of the suite starved).
        process.terminationHandler = { child in
            let status = child.terminationStatus
            let reason = child.terminationReason
            let waiters = state.withLock { state in
                state.status = status
                state.reason = reason
                defer { state.exitWaiters = [] }
                return state.exitWaiters
            }
            for waiter in waiters { waiter.resume(returning: status) }
        }
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread {
            while true {
                let chunk = PipeReading.chunk(reader.fileDescriptor) ?? Data()
                let (ready, failed) = state.withLock {
                    state -> ([(CheckedContinuation<String, any Error>, String)], [CheckedContinuation<String, any Error>]) in
                    if chunk.isEmpty {
                        state.closed = true
                        defer { state.outputWaiters = [] }
                        return ([], state.outputWaiters.map(\.continuation))
                    }
                    state.output.append(chunk)
                    let text = String(decoding: state.output, as: UTF8.self)
                    var ready: [(CheckedContinuation<String, any Error>, String)] = []
                    state.outputWaiters.removeAll { waiter in
                        guard ServerProcess.count(of: waiter.text, in: text) >= waiter.times else { return false }
                        ready.append((waiter.continuation, text))
                        return true
                    }
                    return (ready, [])
                }
                for (continuation, text) in ready { continuation.resume(returning: text) }
                if chunk.isEmpty {
                    let log = state.withLock { String(decoding: $0.output, as: UTF8.self) }
                    for continuation in failed { continuation.resume(throwing: Exited(log: log)) }
                    return
                }
            }
        }.start()
    }

    /// Starts `actionable serve --port PORT EXTRA…` in `directory` (with `environment` added)
    /// and returns once it listens and its storage is open (the listener comes up first).
    public static func serve(
        in directory: URL, port: Int, extra: [String] = [], environment: [String: String] = [:]
    ) async throws -> ServerProcess {
        let server = try ServerProcess(
            CommandLineRunner.binary, ["serve", "--port", String(port)] + extra, in: directory, environment: environment)
        _ = try await server.output(containing: "listening on")
        _ = try await server.output(containing: "accepting action responses")
        return server
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Everything the process printed so far.
    public var log: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// How often `text` occurs in `output`.
    static func count(of text: String, in output: String) -> Int {
        output.components(separatedBy: text).count - 1
    }

    /// All output so far, once it contains `text` at least `times` times (the process's own
    /// signal, not a timer). Throws if the process closes its output first, and after `limit`
    /// (a guard against a hang, with the output so far) or when the test's task is cancelled.
    public func output(containing text: String, times: Int = 1, limit: Duration = .seconds(180)) async throws -> String {
        do {
            return try await within("\"\(text)\" in the output", limit: limit) { try await self.parkForOutput(containing: text, times: times) }
        } catch let error as NeverHappened {
            throw Silent(waitedFor: error, log: state.withLock { String(decoding: $0.output, as: UTF8.self) })
        }
    }

    private func parkForOutput(containing text: String, times: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<String, any Error>? = state.withLock { state in
                let output = String(decoding: state.output, as: UTF8.self)
                if Self.count(of: text, in: output) >= times { return .success(output) }
                if state.closed { return .failure(Exited(log: output)) }
                state.outputWaiters.append((text, times, continuation))
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// Waits for the process to end; returns its exit status (or the signal that ended it).
    /// A process still running after `limit`, or when the test's task is cancelled, is killed
    /// (SIGKILL), so the status then is never a clean exit and no test waits forever.
    @discardableResult
    public func exit(limit: Duration = .seconds(120)) async -> Int32 {
        if let status = try? await within("the process to exit", limit: limit, { await self.parkForExit() }) { return status }
        kill(process.processIdentifier, SIGKILL)
        return await parkForExit()
    }

    private func parkForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = state.withLock { state in
                if state.status == nil { state.exitWaiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// How the process ended (nil while it runs).
    public var terminationReason: Process.TerminationReason? { state.withLock { $0.reason } }

    /// Sends `signal` (SIGTERM by default) to the process, if it still runs.
    public func signal(_ signal: Int32 = SIGTERM) {
        guard state.withLock({ $0.status == nil }) else { return }
        kill(process.processIdentifier, signal)
    }

    /// SIGTERM, then waits for the exit: returns the exit status.
    @discardableResult
    public func stop() async -> Int32 {
        signal(SIGTERM)
        return await exit()
    }

    /// The process never printed what a test waited for.
    public struct Silent: Error, CustomStringConvertible {
        public let waitedFor: NeverHappened
        public let log: String
        public var description: String { "\(waitedFor); the process printed:\n\(log)" }
    }

    public struct Exited: Error, CustomStringConvertible {
        public let log: String
        public var description: String { "the process closed its output first:\n\(log)" }
    }
}

extension ServerProcess {
    /// A TCP port on 127.0.0.1 that nothing listens on at the moment of the call, for a
    /// process the test starts next. It is drawn from 20000–31999, below Linux's ephemeral range
    /// (32768 and up): the kernel hands those out for every `port: 0` listener and outgoing
    /// connection of the tests running beside this one, and one of them could take a port
    /// between this check and the process's own bind.
    public static func freePort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20000..<32000)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let bound = withLoopbackAddress(port: port) { bind(descriptor, $0, $1) }
            close(descriptor)
            if bound == 0 { return port }
        }
        throw PortsExhausted()
    }

    /// Calls `body` with the address 127.0.0.1:`port` as `bind` and `connect` take it.
    static func withLoopbackAddress<T>(port: Int, host: String = "127.0.0.1", _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// No free port was found in the range.
    public struct PortsExhausted: Error {}
}
