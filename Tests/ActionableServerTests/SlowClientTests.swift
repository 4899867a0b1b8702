import ActionableCore
import ActionableTestSupport
import ActionableTokens
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Clients that trickle their requests cannot starve taps: they hold no in-flight slot (one is
/// taken once a body is read), the read deadline closes them, and real taps keep their latency.
@Suite(.serialized)
struct SlowClientTests {
    /// A request whose headers never finish, one whose body never finishes, and a connection that
    /// sends nothing at all: each is closed once the read timeout has passed (the last counted
    /// from its opening), while a tap sent meanwhile is accepted. A kept-alive connection between
    /// two requests is the idle timeout's, not the read deadline's.
    @Test(.timeLimit(.minutes(2)))
    func theReadDeadlineClosesRequestsThatNeverFinish() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--storage", "memory:", "--read-timeout", "2s"])
        defer { server.signal() }
        // A request answered before the others open: from now on, this connection is idle.
        let kept = try RawConnection(port: port, readTimeout: 60)
        kept.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await kept.readResponse()?.status == 200)
        let headers = try RawConnection(port: port, readTimeout: 60)
        headers.send("POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: appl")
        let body = try RawConnection(port: port, readTimeout: 60)
        body.send("POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"cat")
        let silent = try RawConnection(port: port, readTimeout: 60)  // sends nothing: closed 2 s after it opened
        // A request answered, then a second one begun at once that never ends: the deadline armed
        // by the first (which is not cancelled when a request ends in time) finds the second still
        // reading and closes it once the second's own time is up.
        let second = try RawConnection(port: port, readTimeout: 60)
        second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await second.readResponse()?.status == 200)
        second.send("POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")

        let tap = try await ServeProcessTests.acceptTap(notificationID: "n-slow", in: directory)
        #expect(try await ServeProcessTests.post(tap, port: port).0 == 202)
        let start = ContinuousClock.now
        #expect(await headers.isClosedBeforeTimeout())
        #expect(await body.isClosedBeforeTimeout())
        #expect(await silent.isClosedBeforeTimeout())
        #expect(await second.isClosedBeforeTimeout())
        // Closed by the deadline, not by the 60 s bound on the test's own read (the margin is for
        // a loaded machine).
        #expect(ContinuousClock.now - start < .seconds(45))
        // More than the read timeout after its first request ended (the others were closed 2 s
        // after they opened, later than that), the kept-alive connection still serves: between
        // requests it is the idle timeout's.
        kept.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await kept.readResponse()?.status == 200)
    }

    /// With --max-connections 2, a third connection is not served while two are open (it waits
    /// in the listen backlog), and is served as soon as one of them closes.
    @Test(.timeLimit(.minutes(1)))
    func connectionsPastTheCapWaitForAFreePlace() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--storage", "memory:", "--max-connections", "2"])
        defer { server.signal() }
        var first: RawConnection? = try RawConnection(port: port)
        first?.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await first?.readResponse()?.status == 200)  // kept alive: one place taken
        let second = try RawConnection(port: port)
        second.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await second.readResponse()?.status == 200)  // two
        // The third is accepted by the kernel, not by the server: no answer while the two stay open
        // (the 2 s bound only ends the wait for an answer that must not come).
        let third = try RawConnection(port: port, readTimeout: 2)
        third.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await third.readResponse() == nil)
        first = nil  // closes it: a place is free, and the third is served
        third.setReadTimeout(20)
        #expect(await third.readResponse()?.status == 200)
    }

    /// 2,000 connections trickle request bodies (a byte each round) for the whole test while
    /// 600 genuine taps are sent one after another: every tap is accepted, their p99 stays under
    /// 100 ms, and afterwards the read deadline has closed every trickling connection.
    ///
    /// A latency bar means nothing on two cores shared with the rest of the suite, so this test
    /// runs only with ACTIONABLE_LOAD_TESTS=1: scripts/test runs it on its own after the suite.
    @Test(
        .timeLimit(.minutes(3)),
        .enabled(if: ProcessInfo.processInfo.environment["ACTIONABLE_LOAD_TESTS"] == "1", "a load test: scripts/test runs it alone"))
    func twoThousandSlowConnectionsDoNotStarveTaps() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try DevelopmentKey.loadOrCreate(directory: directory.appendingPathComponent(".actionable").path).key
        let tokens = try await ActionTokens(keys: [key])
        var taps: [String] = []
        for index in 0..<900 {
            let token = try await tokens.mint(
                user: "u\(index)", notificationID: "n-trickle-\(index)", category: "invite", payload: ActionsEndpointTests.inviteDigest("42"))
            taps.append(#"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"42"}}"#)
        }
        let port = try ServeProcessTests.freePort()
        let server = try await ServerProcess.serve(
            in: directory, port: port,
            extra: [
                "--storage", "sqlite:slow.sqlite", "--read-timeout", "10s", "--max-in-flight", "64",
                // 2,000 connections from one loopback address on purpose: here the per-address limit is not what is measured.
                "--max-connections-per-address", "0",
            ])
        defer { server.signal() }

        var slow: [RawConnection] = []
        for _ in 0..<2000 {
            let connection = try RawConnection(port: port, readTimeout: 30)
            connection.send("POST /v1/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{")
            slow.append(connection)
        }
        let trickling = slow
        let trickler = Task.detached {
            // A byte to each connection every second, spread over the second (100 connections
            // every 50 ms): the steady load of slow clients, for as long as the taps run.
            while !Task.isCancelled {
                for start in stride(from: 0, to: trickling.count, by: 100) {
                    for connection in trickling[start..<min(start + 100, trickling.count)] { connection.send(" ") }
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        // 600 taps beside the tricklers; 300 more once they are closed give the baseline of the
        // same server in the same run.
        let outcome = await Result(catching: {
            let loaded = try await Self.send(taps.prefix(600), port: port, client: client)
            trickler.cancel()
            // Every trickler is closed by the read deadline (10 s from its first byte).
            var closed = 0
            for connection in slow where await connection.isClosedByServer() { closed += 1 }
            return (loaded, closed, try await Self.send(taps.suffix(300), port: port, client: client))
        })
        trickler.cancel()
        try await client.shutdown()
        let ((statuses, latencies), closed, baseline) = try outcome.get()
        #expect(statuses == Array(repeating: 202, count: 600))
        let p99 = Self.p99(latencies)
        #expect(p99 < .milliseconds(100), "p99 \(p99)")
        #expect(closed == slow.count)
        #expect(baseline.statuses == Array(repeating: 202, count: 300))
        // The figure BENCHMARKS.md keeps, beside its baseline from the same run.
        print(
            "slow-client figure: taps p99 \(p99) (max \(latencies.max() ?? .zero)) beside 2,000 trickling connections; "
                + "p99 \(Self.p99(baseline.latencies)) with none")
    }

    /// Sends `taps` one after another; their statuses and latencies.
    static func send(
        _ taps: some Sequence<String>, port: Int, client: HTTPClient
    ) async throws -> (statuses: [UInt], latencies: [Duration]) {
        var latencies: [Duration] = []
        var statuses: [UInt] = []
        for tap in taps {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/actions")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: tap))
            let start = ContinuousClock.now
            let response = try await client.execute(request, timeout: .seconds(10))
            _ = try await response.body.collect(upTo: 65536)
            latencies.append(ContinuousClock.now - start)
            statuses.append(response.status.code)
        }
        return (statuses, latencies)
    }

    static func p99(_ latencies: [Duration]) -> Duration { latencies.sorted()[latencies.count * 99 / 100] }
}
