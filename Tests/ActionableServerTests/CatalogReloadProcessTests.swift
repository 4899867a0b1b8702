import ActionableTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `kill -HUP` under a running `actionable serve`: the category files are read again and served
/// at once when they load; a broken or breaking set leaves the catalog served as it was and says
/// why, in the log and in `/metrics`.
struct CatalogReloadProcessTests {
    static let adminToken = "reload-admin-token-0123456789abcdefghij"

    /// A category of its own, `reminder`, with one action titled `title`.
    static func reminder(title: String, retired: Bool = false) -> String {
        """
        version: 1
        category: reminder
        \(retired ? "retired: true\n" : "")payload:
          reminderId: { type: string, required: true, maxLength: 64 }
        actions:
          - id: snooze
            title: { en: "\(title)" }
        """
    }

    static func get(_ path: String, port: Int, bearer: String? = nil) async throws -> (status: Int, body: String, etag: String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.value(forHTTPHeaderField: "ETag"))
    }

    /// The categories served, by id, with their actions' English titles.
    static func served(port: Int) async throws -> (etag: String, titles: [String: [String]]) {
        let answer = try await get("/v1/categories", port: port)
        #expect(answer.status == 200)
        let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        let categories = try #require(object?["categories"] as? [[String: Any]], "\(answer.body)")
        var titles: [String: [String]] = [:]
        for category in categories {
            let id = try #require(category["category"] as? String)
            let actions = category["actions"] as? [[String: Any]] ?? []
            titles[id] = actions.map { (($0["title"] as? [String: Any])?["en"] as? String) ?? "?" }
        }
        return (try #require(answer.etag), titles)
    }

    @Test func aCategoryAddedChangedAndBrokenUnderARunningServe() async throws {
        let directory = try CommandLineRunner.temporaryDirectory([:], exampleCategories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let categories = directory.appendingPathComponent("Categories")
        // A tap minted before anything changes: its category is retired on the way.
        let tap = try await ServeProcessTests.acceptTap(notificationID: "n-reload", in: directory)
        let port = try ServerProcess.freePort()
        let server = try await ServerProcess.serve(in: directory, port: port, extra: ["--admin-token", Self.adminToken])
        defer { server.signal() }
        let first = try await Self.served(port: port)
        #expect(first.titles["reminder"] == nil && first.titles["invite"] != nil)

        // Added: served from the next request on, with a new ETag.
        try Self.reminder(title: "Snooze").write(to: categories.appendingPathComponent("reminder.yaml"), atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        _ = try await server.output(containing: "categories reloaded: 5 categories served")
        let added = try await Self.served(port: port)
        #expect(added.etag != first.etag)
        #expect(added.titles["reminder"] == ["Snooze"])
        let notModified = try await Self.conditionalStatus(etag: first.etag, port: port)
        #expect(notModified == 200, "the old ETag no longer matches")

        // Changed: a title.
        try Self.reminder(title: "Later").write(to: categories.appendingPathComponent("reminder.yaml"), atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        _ = try await server.output(containing: "categories reloaded: 5 categories served", times: 2)
        let changed = try await Self.served(port: port)
        #expect(changed.etag != added.etag)
        #expect(changed.titles["reminder"] == ["Later"])

        // Broken: a file that does not parse. The catalog served stays, and the log names the file.
        try "category: broken\nactions: [ { id: x\n".write(
            to: categories.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        let log = try await server.output(containing: "categories not reloaded")
        _ = try await server.output(containing: "broken.yaml")
        #expect(try await Self.served(port: port).etag == changed.etag)
        #expect(log.contains("the catalog served before stays"))
        try FileManager.default.removeItem(at: categories.appendingPathComponent("broken.yaml"))

        // Breaking: a category removed without being retired first would strand installed apps.
        try FileManager.default.removeItem(at: categories.appendingPathComponent("reminder.yaml"))
        server.signal(SIGHUP)
        _ = try await server.output(containing: "categories not reloaded", times: 2)
        _ = try await server.output(containing: "would break installed apps or running backends")
        #expect(try await Self.served(port: port).titles["reminder"] == ["Later"])

        // Retired: the invite category, whose tap was minted before; the tap still lands.
        try Self.reminder(title: "Later").write(to: categories.appendingPathComponent("reminder.yaml"), atomically: true, encoding: .utf8)
        let invite = categories.appendingPathComponent("invite.yaml")
        let text = try String(contentsOf: invite, encoding: .utf8)
        try text.replacingOccurrences(of: "category: invite\n", with: "category: invite\nretired: true\n")
            .replacingOccurrences(of: "contexts:\n  default: [accept, decline, maybe, comment]\n  minimal: [accept, decline]\n", with: "")
            .write(to: invite, atomically: true, encoding: .utf8)
        server.signal(SIGHUP)
        _ = try await server.output(containing: "categories reloaded: 5 categories served", times: 3)
        let (status, _) = try await ServeProcessTests.post(tap, port: port)
        #expect(status == 202, "a tap for a category retired by the reload is accepted, as retired ones are")

        // Each reload is counted by its result.
        let metrics = try await Self.get("/metrics", port: port, bearer: Self.adminToken)
        #expect(metrics.body.contains(#"actionable_catalog_reloads_total{result="reloaded"} 3"#), "\(metrics.body)")
        #expect(metrics.body.contains(#"actionable_catalog_reloads_total{result="refused"} 2"#))
        #expect(await server.stop() == 0)
    }

    /// The status of `GET /v1/categories` with `If-None-Match: etag`.
    static func conditionalStatus(etag: String, port: Int) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/categories")!)
        request.setValue(etag, forHTTPHeaderField: "If-None-Match")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
