import ActionableCore
import ActionablePayload
import ActionableTesting
import Foundation
import Testing

struct PayloadBuilderTests {
    static let catalog = try! Catalog(
        yaml: """
            category: invite
            payload:
              inviteId: { type: string, required: true, maxLength: 64 }
              eventName: string
              seats: integer
              when: number
            actions: [{ id: accept, title: Accept }]
            """, "category: blob\npayload: { text: string }\n")
    let builder = PayloadBuilder(catalog: PayloadBuilderTests.catalog)

    struct Invite: Encodable {
        var inviteId: String
        var eventName: String?
        var seats: Int?
    }

    func object(_ payload: NotificationPayload) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(payload.bytes)) as? [String: Any])
    }

    @Test func everyApsKeyIsWrittenInAPNsSpelling() throws {
        let aps = APS(
            alert: .fields(
                .init(
                    title: "T", subtitle: "S", body: "B", titleLocKey: "TK", titleLocArgs: ["a"],
                    subtitleLocKey: "SK", subtitleLocArgs: ["b"], locKey: "BK", locArgs: ["c"], launchImage: "L")),
            badge: 3, sound: .critical(name: "alarm.caf", volume: 0.5), threadID: "thread",
            contentAvailable: true, mutableContent: true, targetContentID: "target",
            interruptionLevel: .timeSensitive, relevanceScore: 0.75, filterCriteria: "work")
        let payload = try builder.build(category: "invite", aps: aps, custom: Invite(inviteId: "42"))
        #expect(
            payload.json
                == #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B","title-loc-key":"TK","title-loc-args":["a"],"subtitle-loc-key":"SK","subtitle-loc-args":["b"],"loc-key":"BK","loc-args":["c"],"launch-image":"L"},"badge":3,"sound":{"critical":1,"name":"alarm.caf","volume":0.5},"thread-id":"thread","category":"invite","content-available":1,"mutable-content":1,"target-content-id":"target","interruption-level":"time-sensitive","relevance-score":0.75,"filter-criteria":"work"},"inviteId":"42"}"#
        )
    }

    @Test func customKeysAndTheTokenSitBesideAps() throws {
        let payload = try builder.build(
            category: "invite", aps: APS(alert: .body("Hi"), sound: .named("default")),
            custom: Invite(inviteId: "42", eventName: "Dinner", seats: nil), actionToken: "tok")
        #expect(
            payload.json == #"{"aps":{"alert":"Hi","sound":"default","category":"invite"},"inviteId":"42","eventName":"Dinner","actionToken":"tok"}"#)
        #expect(payload.category == "invite")
    }

    @Test func aRetiredCategoryCannotBeBuilt() throws {
        let catalog = try Catalog(yaml: "category: survey\nretired: true\nactions: [{ id: answer, title: Answer }]\n")
        #expect {
            try PayloadBuilder(catalog: catalog).build(category: "survey", aps: APS(alert: .body("x")))
        } throws: { error in
            let error = error as? PayloadError
            return error?.code == .retiredCategory && error?.description.contains("is retired") == true
        }
    }

    @Test func anUnknownCategoryCannotBeBuilt() {
        #expect {
            try builder.build(category: "invit", aps: APS(alert: .body("x")), custom: Invite(inviteId: "1"))
        } throws: { error in
            let error = error as? PayloadError
            return error?.code == .unknownCategory && error?.description == "category \"invit\" is not in the catalog (did you mean \"invite\"?)"
        }
    }

    @Test(
        arguments: [
            ([("eventName", JSONValue.string("x"))], "payload key \"inviteId\" is required by the category's payload schema"),
            ([("inviteId", .int(1))], "payload key \"inviteId\" must be a string, found a number"),
            ([("inviteId", .string(String(repeating: "é", count: 65)))], "payload key \"inviteId\" is 65 characters long; its maxLength is 64"),
            (
                [("inviteId", .string("1")), ("seat", .int(1))],
                "payload key \"seat\" is not declared in the category's payload schema (did you mean \"seats\"?)"
            ),
            ([("inviteId", .string("1")), ("aps", .object([]))], "payload key \"aps\" is reserved (aps belongs to APNs, actionToken to Actionable)"),
        ] as [([(String, JSONValue)], String)])
    func customKeysMustMatchTheSchema(fields: [(String, JSONValue)], message: String) {
        #expect {
            try builder.build(category: "invite", aps: APS(alert: .body("x")), fields: fields)
        } throws: { error in
            (error as? PayloadError)?.code == .payloadMismatch && (error as? PayloadError)?.messages == [message]
        }
    }

    @Test func theCustomPayloadMustBeAnObject() {
        #expect {
            try builder.build(category: "blob", aps: APS(alert: .body("x")), custom: ["a", "b"])
        } throws: { error in
            (error as? PayloadError)?.code == .customPayloadNotAnObject
        }
    }

    @Test(arguments: [
        (APS(alert: .body("x"), badge: -1), "badge must be 0 or more, found -1"),
        (APS(alert: .body("x"), relevanceScore: 1.5), "relevance-score must be between 0 and 1, found 1.5"),
        (APS(sound: .critical(name: "a", volume: 2)), "a critical sound's volume must be between 0 and 1, found 2.0"),
        (
            APS(alert: .body("x"), interruptionLevel: .init(rawValue: "urgent")),
            "interruption-level must be passive, active, time-sensitive or critical, found urgent"
        ),
        (APS(), "the notification shows nothing: give an alert, a sound or a badge, or set content-available"),
    ])
    func apsValuesAPNsWouldRefuseAreRefused(aps: APS, message: String) {
        #expect {
            try builder.build(category: "blob", aps: aps)
        } throws: { error in
            (error as? PayloadError)?.code == .invalidAPS && (error as? PayloadError)?.messages == [message]
        }
    }

    /// A `blob` payload whose `text` makes the whole payload exactly `size` bytes.
    func blob(bytes size: Int, filler: String) throws -> Result<NotificationPayload, PayloadError> {
        let overhead = try builder.build(category: "blob", aps: APS(alert: .body("x")), fields: [("text", .string(""))]).bytes.count
        let fillerBytes = filler.utf8.count
        let room = size - overhead
        let text = String(repeating: filler, count: room / fillerBytes) + String(repeating: "a", count: room % fillerBytes)
        return Result { () throws(PayloadError) in
            try builder.build(category: "blob", aps: APS(alert: .body("x")), fields: [("text", .string(text))])
        }
    }

    @Test(arguments: ["a", "é", "拒", "🎉"])
    func theSizeLimitIsOnBytesNotCharacters(filler: String) throws {
        let atLimit = try blob(bytes: 4096, filler: filler)
        #expect(try atLimit.get().bytes.count == 4096)
        let over = try blob(bytes: 4097, filler: filler)
        guard case .failure(let error) = over else {
            Issue.record("4097 bytes must be refused")
            return
        }
        #expect(error.code == .tooLarge)
        #expect(error.description.hasPrefix("the payload is 4097 bytes; APNs accepts at most 4096 bytes for alert pushes"))
    }

    @Test func voipPushesMayBe5120Bytes() throws {
        let text = String(repeating: "v", count: 5000)
        #expect(throws: PayloadError.self) {
            try builder.build(category: "blob", aps: APS(alert: .body("x")), fields: [("text", .string(text))])
        }
        let voip = try builder.build(
            category: "blob", aps: APS(alert: .body("x")), fields: [("text", .string(text))],
            pushType: .voip)
        #expect(voip.bytes.count > 4096 && voip.bytes.count <= 5120)
    }

    @Test func escapingCountsInTheSize() throws {
        // Each quote is written as two bytes: the limit applies to what is sent.
        let quotes = String(repeating: "\"", count: 2100)
        #expect(throws: PayloadError.self) {
            try builder.build(category: "blob", aps: APS(alert: .body("x")), fields: [("text", .string(quotes))])
        }
    }

    struct Nested: Encodable {
        struct Inner: Encodable {
            var list: [Int]
            var flag: Bool
        }
        var inviteId: String
        var when: Date
        var eventName: String?
    }

    @Test func encodableCustomPayloadsMatchJSONEncoder() throws {
        let value = Nested(inviteId: "1", when: Date(timeIntervalSinceReferenceDate: 1.5), eventName: nil)
        let payload = try builder.build(category: "invite", aps: APS(badge: 1), custom: value)
        let ours = try object(payload)
        let foundation = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        #expect(ours["inviteId"] as? String == foundation["inviteId"] as? String)
        #expect(ours["when"] as? Double == foundation["when"] as? Double)
        #expect(ours["eventName"] == nil && foundation["eventName"] == nil)
    }
}
