import ActionableCore
import ActionablePayload
import ActionableTokens
import Benchmark
import Foundation

/// Building + encoding an invite payload (category check, schema validation, size check)
/// against plain JSONEncoder of an equivalent Codable struct; and minting + verifying tokens.
let benchmarks: @Sendable () -> Void = {
    let invite = CatalogLoader().loadFile(path: "invite.yaml", contents: Array("""
        category: invite
        payload: { inviteId: { type: string, required: true, maxLength: 64 }, eventName: string, seats: integer }
        actions: [{ id: accept, title: Accept }, { id: decline, title: Decline }]
        """.utf8)).category!
    let builder = PayloadBuilder(catalog: Catalog([invite]))
    let token = "eyJ0eXAiOiJKV1QiLCJraWQiOiJrMSIsImFsZyI6IkhTMjU2In0.eyJqdGkiOiJuLTEiLCJzdWIiOiJhbGljZSIsImNhdCI6Imludml0ZSIsImlhdCI6MTc5NTMyMDg1MSwiZXhwIjoxNzk1OTI1NjUxfQ.kDismL26a-nfgDLw_oIL-cK8JBdVpmbNNxKgdGkGII8"

    struct Invite: Encodable {
        var inviteId: String
        var eventName: String?
        var seats: Int?
    }

    // The baseline: the same JSON from Codable structs, nothing checked.
    struct PlainAlert: Encodable { var title: String; var body: String }
    struct PlainAPS: Encodable {
        var alert: PlainAlert
        var sound: String
        var category: String
    }
    struct PlainPayload: Encodable {
        var aps: PlainAPS
        var inviteId: String
        var eventName: String
        var seats: Int
        var actionToken: String
    }

    let aps = APS(alert: .fields(.init(title: "You're invited", body: "Sam invited you to Team dinner")), sound: .named("default"))
    let custom = Invite(inviteId: "inv-42", eventName: "Team dinner, Friday 7pm", seats: 2)
    let plain = PlainPayload(
        aps: PlainAPS(alert: PlainAlert(title: "You're invited", body: "Sam invited you to Team dinner"), sound: "default",
            category: "invite"),
        inviteId: "inv-42", eventName: "Team dinner, Friday 7pm", seats: 2, actionToken: token)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], timeUnits: .nanoseconds, scalingFactor: .kilo,
        maxDuration: .seconds(3))

    Benchmark("PayloadBuilder: invite payload (checked, size-limited)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? builder.build(category: "invite", aps: aps, custom: custom, actionToken: token))
        }
    }

    Benchmark("baseline: JSONEncoder of an equivalent Codable struct", configuration: configuration) { benchmark in
        let encoder = JSONEncoder()
        for _ in benchmark.scaledIterations {
            blackHole(try? encoder.encode(plain))
        }
    }

    let key = try! ActionTokenKey(parsing: "k1=0123456789abcdef0123456789abcdef")
    let digest = PayloadDigest(payload: [("inviteId", .string("inv-42")), ("seats", .int(3))], schema: invite.payload)
    Benchmark("action token: mint + verify", configuration: .init(metrics: [.wallClock, .throughput],
        timeUnits: .microseconds, maxDuration: .seconds(3))) { benchmark async in
        let tokens = try! await ActionTokens(keys: [key])
        for _ in benchmark.scaledIterations {
            let text = try! await tokens.mint(user: "alice", notificationID: "n-1", category: "invite", payload: digest)
            blackHole(try? await tokens.verify(text))
        }
    }
}
