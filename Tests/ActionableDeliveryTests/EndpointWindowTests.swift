import ActionableCore
import ActionableDelivery
import ActionableStore
import ActionableTestSupport
import Foundation
import Logging
import NIOCore
import Testing

/// An endpoint keeps a window of attempts in flight, refilled as each answers: one stalled
/// answer holds its own slot, never the deliveries behind it.
struct EndpointWindowTests {
    static let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Endpoint `crm`, taking every response, on `upstream`.
    static func endpoint(on upstream: HostileUpstream) -> Endpoint {
        Endpoint(
            id: "crm", url: "http://127.0.0.1:\(upstream.port)/hook", filter: ["*"], secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test(.timeLimit(.minutes(1)))
    func aStalledAnswerHoldsOnlyItsOwnSlot() async throws {
        // r-0 stalls for longer than this test may run; every other delivery is answered 204.
        let upstream = try HostileUpstream { id, _ in id == "r-0" ? .stall(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8)) : .answer(204)
        }
        defer { upstream.stop() }
        let store = InMemoryActionStore()
        _ = await store.createEndpoint(EndpointWindowTests.endpoint(on: upstream))
        await store.fanOutAtAccept(AcceptFanOut())
        for index in 0..<6 {
            _ = try await store.accept(
                NewResponse(
                    id: "r-\(index)",
                    response: ActionResponse(category: "invite", action: "accept", notificationID: "n-\(index)", user: "u"),
                    receivedAt: Date().addingTimeInterval(TimeInterval(index) - 60)))
        }
        var worker = EndpointWorker(store: store, defaultSigner: nil, batchSize: 2, jitter: { 1 }, logger: Self.logger)
        worker.forwarder = { url, signers in Forwarder(url: url, signers: signers, timeout: .seconds(120)) }
        let drained = Task { await worker.drain("crm") }
        // Five answered while r-0 still stalls in its slot (a batch of two would wait for it).
        try await upstream.arrived(6)
        #expect(Set(upstream.arrivals) == Set((0..<6).map { "r-\($0)" }))
        // Every answer written before the upstream stops (stopping it cuts an answer in flight).
        try await upstream.answered(6)
        let statuses = await (1..<6).asyncMap { try? await store.response(id: "r-\($0)")?.status }
        #expect(statuses.allSatisfy { $0 == .delivered || $0 == .pending })  // the last may still be recording
        upstream.stop()  // the stalled answer ends: a failed attempt, retried later
        #expect(await drained.value >= 6)  // r-0 again too, should its retry fall due before the drain ends
        for index in 1..<6 { #expect(try await store.response(id: "r-\(index)")?.status == .delivered) }
        let stalled = try await store.response(id: "r-0")
        #expect(stalled?.status == .pending, "\(String(describing: stalled))")
    }
}

/// The endpoints' worker claims an accepted response when woken, not at its next poll.
struct EndpointWakeTests {
    /// A wake starts the endpoints whose filter takes what was accepted, unless their breaker is
    /// open (the poll probes those); a wake for everything starts every one.
    @Test func aWakeStartsOnlyTheEndpointsThatTakeWhatWasAccepted() {
        let now = Date(timeIntervalSince1970: 1_000)
        var invites = Endpoint(id: "crm", url: "http://127.0.0.1:9/", filter: ["invite.*"], createdAt: now)
        #expect(EndpointWorker.wakes(invites, for: [.init(category: "invite", action: "accept")], now: now))
        #expect(
            !EndpointWorker.wakes(
                invites, for: [.init(category: "message", action: "reply"), .init(category: "order-shipped", action: "track")], now: now))
        #expect(EndpointWorker.wakes(invites, for: nil, now: now))
        invites.openUntil = now.addingTimeInterval(60)
        #expect(!EndpointWorker.wakes(invites, for: [.init(category: "invite", action: "accept")], now: now))
        #expect(EndpointWorker.wakes(invites, for: nil, now: now))
        invites.openUntil = now.addingTimeInterval(-1)  // its probe is due
        #expect(EndpointWorker.wakes(invites, for: [.init(category: "invite", action: "accept")], now: now))
    }

    @Test(.timeLimit(.minutes(1)))
    func aWakeStartsTheDeliveryOfWhatWasAcceptedSince() async throws {
        let upstream = try HostileUpstream { _, _ in .answer(204) }
        defer { upstream.stop() }
        let store = InMemoryActionStore()
        _ = await store.createEndpoint(EndpointWindowTests.endpoint(on: upstream))
        await store.fanOutAtAccept(AcceptFanOut())
        func accept(_ id: String) async throws {
            _ = try await store.accept(
                NewResponse(id: id, response: ActionResponse(category: "invite", action: "accept", notificationID: "n-\(id)", user: "u")))
        }
        try await accept("r-0")
        let signal = OutboxSignal()
        let worker = EndpointWorker(store: store, defaultSigner: nil, jitter: { 1 }, logger: EndpointWindowTests.logger)
        // A poll every ten minutes: only the wake can bring r-1 out within the test's limit.
        let running = Task {
            await worker.run(
                wake: { limit in await signal.wake(upTo: limit) }, idle: .seconds(600))
        }
        try await upstream.arrived(1)
        // r-0's drain has nothing more to claim once r-0 is recorded, and ends.
        try await within("r-0 recorded") {
            while try await store.response(id: "r-0")?.status != .delivered { await Task.yield() }
        }
        try await accept("r-1")
        signal.signal()
        try await upstream.arrived(2)
        #expect(upstream.arrivals.sorted() == ["r-0", "r-1"])
        running.cancel()
        await running.value
    }
}

extension Sequence where Element: Sendable {
    fileprivate func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
