import ActionableClient
import ActionableClientStandIn
import ActionableTestSupport
import Foundation
import Testing
import UserNotifications

/// A server, or a proxy in front of it, answering what it should not: the app keeps the catalog
/// it had, registers only what keeps the rules, and never holds more than its limit.
@Suite(.timeLimit(.minutes(2)))
struct HostileCatalogTests {
    static let good = ServedCatalogTests.catalog(#"{"category":"poll","actions":[{"id":"yes","title":"Yes"}]}"#)

    static func answer(
        _ status: Int, _ body: Data = Data(), etag: String? = #""v1""#, headers: [String: String] = [:]
    )
        -> CatalogProxy.Scripted
    {
        var headers = headers
        if let etag { headers["ETag"] = etag }
        return CatalogProxy.Scripted(status: status, headers: headers, body: body)
    }

    @Test func garbageStatusesRedirectsAndOversizedBodiesLeaveTheCachedCatalog() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-hostile-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        try await CatalogProxy.run { proxy, port in
            let sync = CatalogSync(server: URL(string: "http://127.0.0.1:\(port)")!, cache: cache, languages: ["en"], limit: 64 * 1024)
            // 304 with nothing cached is a protocol violation, not an empty catalog.
            await proxy.answer(Self.answer(304))
            await #expect(throws: CatalogSync.RefreshError.protocolViolation("304 Not Modified, but nothing is cached")) {
                try await sync.refresh()
            }
            await proxy.answer(Self.answer(200, Self.good))
            #expect(try await sync.refresh() == .changed(try ServedCatalog(json: Self.good, languages: ["en"])))

            let eleven = (0..<11).map { #"{"id":"a\#($0)","title":"A"}"# }.joined(separator: ",")
            let hostile: [(CatalogProxy.Scripted, CatalogSync.RefreshError)] = [
                (Self.answer(200, Data("<html>oops</html>".utf8), etag: #""v2""#), .notACatalog("")),
                (Self.answer(200, Data(#"{"version":1,"categories":[]}"#.utf8), etag: nil), .protocolViolation("")),
                (Self.answer(200, Data(#"{"version":1,"categories":[]}"#.utf8), etag: "v2\r\nX-Injected: 1"), .protocolViolation("")),
                (Self.answer(500, Data("boom".utf8)), .status(500)),
                (Self.answer(302, headers: ["Location": "http://127.0.0.1:\(port)/elsewhere"]), .status(302)),
                (Self.answer(200, Data(repeating: 0x20, count: 200 * 1024), etag: #""v3""#), .tooLarge(limit: 64 * 1024)),
                // No Content-Length: the download stops once the bytes pass the limit.
                (
                    CatalogProxy.Scripted(status: 200, headers: ["ETag": #""v3""#], body: Data(repeating: 0x20, count: 200 * 1024), chunked: true),
                    .tooLarge(limit: 64 * 1024)
                ),
            ]
            for (answer, expected) in hostile {
                await proxy.answer(answer)
                do {
                    try await sync.refresh()
                    Issue.record("refreshed from \(answer.status)")
                } catch let error as CatalogSync.RefreshError {
                    switch (error, expected) {
                    case (.notACatalog, .notACatalog), (.protocolViolation, .protocolViolation): break
                    default: #expect(error == expected)
                    }
                }
                #expect(await sync.cached()?.categories.map(\.identifier) == ["poll"])
            }

            // A catalog with a category iOS cannot register: the rest is registered, it is not.
            let mixed = ServedCatalogTests.catalog(
                #"{"category":"poll","actions":[{"id":"yes","title":"Yes"}]},{"category":"wide","actions":[\#(eleven)]}"#)
            await proxy.answer(Self.answer(200, mixed, etag: #""v4""#))
            let center = UNUserNotificationCenter.standInIsolated()
            let launch = await sync.registerAtLaunch(on: center)
            #expect(launch.served == ["poll"])
            #expect(Set(await center.notificationCategories().map(\.identifier)) == ["poll"])
            #expect(await sync.cached()?.skipped.first?.contains("11 actions") == true)

            // Every exchange sent the ETag it had (none at first), never an injected one.
            let sent = await proxy.exchanges.map(\.ifNoneMatch)
            #expect(sent.first == .some(nil))
            #expect(sent.dropFirst(2).allSatisfy { $0 == #""v1""# })
        }
    }

    /// A server that trickles its answer — a byte every second — is cut off at the sync's
    /// timeout, head and body together, and the cached catalog stays. (On Linux,
    /// FoundationNetworking restarted its timeout at each byte: still hanging at 40 s with a 5 s
    /// timeout.) The deadline is the same whether the head or the body trickles; only the body is
    /// trickled here, because FoundationNetworking itself traps ("Transfer completed, but there's
    /// no response") when a cancelled transfer whose head never ended is closed — its bug, on
    /// Linux only, which took the whole test process down once.
    @Test(arguments: [Array("HTTP/1.1 200 OK\r\nETag: \"v9\"\r\nContent-Length: 100000\r\n\r\n{".utf8)])
    func aTricklingServerIsCutOffAtTheTimeout(head: [UInt8]) async throws {
        let upstream = try HostileUpstream { _, _ in .trickle(head: head, interval: 1) }
        defer { upstream.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-trickle-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        let sync = CatalogSync(server: URL(string: "http://127.0.0.1:\(upstream.port)")!, cache: cache, languages: ["en"], timeout: 3)
        await #expect(throws: CatalogSync.RefreshError.unreachable(URLError(.timedOut).localizedDescription)) { try await sync.refresh() }
        #expect(await sync.cached() == nil)
        #expect(upstream.arrivals.count == 1)
    }

    /// The served categories' payload keys are read synchronously, as the response handler asks
    /// for them: from this launch's refresh, and at the next launch from the cache before any call.
    @Test func aServedCategorysPayloadKeysAreReadWithoutAwaiting() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-keys-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        let served = ServedCatalogTests.catalog(
            #"{"category":"poll","payload":{"pollId":{"type":"string","required":true},"round":{"type":"integer"}},"actions":[{"id":"yes","title":"Yes"}]}"#
        )
        try await CatalogProxy.run { proxy, port in
            let sync = CatalogSync(server: URL(string: "http://127.0.0.1:\(port)")!, cache: cache, languages: ["en"])
            #expect(sync.payloadKeys(ofCategory: "poll") == nil)
            await proxy.answer(Self.answer(200, served))
            try await sync.refresh()
            #expect(sync.payloadKeys(ofCategory: "poll") == ["pollId", "round"])
            #expect(sync.payloadKeys(ofCategory: "invite") == nil)
        }
        let relaunched = CatalogSync(server: URL(string: "http://127.0.0.1:1")!, cache: cache, languages: ["en"])
        #expect(relaunched.payloadKeys(ofCategory: "poll") == ["pollId", "round"])
    }

    @Test func aCacheFileOfGarbageIsIgnoredAndACatalogSurvivesARestart() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("actionable-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: cache) }
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try Data("\"v1\"\nnot json".utf8).write(to: cache.appendingPathComponent("catalog"))
        let down = try ServerProcess.freePort()
        #expect(await CatalogSync(server: URL(string: "http://127.0.0.1:\(down)/")!, cache: cache).cached() == nil)

        try await CatalogProxy.run { proxy, port in
            await proxy.answer(Self.answer(200, Self.good, etag: #"W/"abc""#))
            try await CatalogSync(server: URL(string: "http://127.0.0.1:\(port)/")!, cache: cache, languages: ["en"]).refresh()
        }
        // A fresh process (a new sync) reads the catalog and its ETag back with the server down.
        let restarted = CatalogSync(server: URL(string: "http://127.0.0.1:\(down)/")!, cache: cache, languages: ["en"])
        #expect(await restarted.cached()?.categories.map(\.identifier) == ["poll"])
        #expect(await restarted.cachedETag() == #"W/"abc""#)
        await #expect(throws: CatalogSync.RefreshError.self) { try await restarted.refresh() }
        #expect(await restarted.cached() != nil)
    }
}
