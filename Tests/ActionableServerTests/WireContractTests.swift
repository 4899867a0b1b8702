import ActionableCore
import ActionableDelivery
import ActionableStore
import ActionableWire
import Foundation
import Testing
import Yams

/// Each JSON shape of the HTTP API is one `Codable` type; each encodes to what `openapi.yaml`'s
/// schema of the same name allows — every required member present, no member the schema does
/// not list, each of the listed type — and decodes back to itself.
struct WireContractTests {
    nonisolated(unsafe) static let schemas: [String: Any] = {
        let yaml = (try? String(contentsOf: OpenAPIDocumentTests.file, encoding: .utf8)) ?? ""
        let document = (try? Yams.load(yaml: yaml)) as? [String: Any]
        return ((document?["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
    }()

    static let delivery = ListedResponse(
        id: "0193", category: "invite", action: "accept", notificationId: "n1", user: "alice", state: "pending", attempts: 2,
        lastError: nil, receivedAt: 1_800_000_000.25, nextAttemptAt: 1_800_000_060)

    static let samples: [(schema: String, value: any Codable & Equatable & Sendable)] = [
        ("ActionAccepted", ActionAnswer(id: "0193", status: "accepted")),
        ("Problem", ProblemDocument(type: ProblemDocument.typeBase + "not-found", title: "Not found", status: 404, detail: "none")),
        (
            "Problem",
            ProblemDocument(
                type: ProblemDocument.typeBase + "invalid-request", title: "Invalid request", status: 400, detail: "d",
                errors: [.init(pointer: "/action", detail: "required")])
        ),
        (
            "StoredResponse",
            StoredResponse(
                id: "0193", status: "dead", attempts: 3, nextAttemptAt: 1_800_000_000, lastError: "HTTP 500", category: "invite",
                action: "accept", notificationId: "n1", user: "alice", receivedAt: 1_800_000_000.5)
        ),
        (
            "StoredResponse",
            StoredResponse(
                id: "0193", status: "pending", attempts: 0, nextAttemptAt: 1_800_000_000, lastError: nil, category: "invite",
                action: "accept", notificationId: "n1", user: "alice", receivedAt: 1_800_000_000)
        ),
        ("Delivery", delivery),
        ("DeliveryPage", ResponsePage(items: [delivery], nextCursor: "abc")),
        ("DeliveryPage", ResponsePage(items: [], nextCursor: nil)),
        ("Requeued", Requeued(id: "0193")),
        ("RequeuedCount", RequeuedCount(queued: 3)),
        ("Badge", BadgeCount(badge: 4)),
        ("DeviceRegistration", DeviceRegistrationRequest(token: String(repeating: "ab", count: 32), environment: "sandbox")),
        ("DeviceRegistration", DeviceRegistrationRequest(token: String(repeating: "ab", count: 32), environment: "production", platform: "ios")),
        ("DeviceRegistration", DeviceRegistrationRequest(token: "fcm-Token_1:APA91b.x", environment: nil, platform: "android")),
        (
            "DeviceItem",
            DeviceItem(token: String(repeating: "ab", count: 32), environment: "production", state: "active", registeredAt: 1, lastSentAt: nil)
        ),
        (
            "DeviceList",
            DeviceList(items: [
                DeviceItem(token: "ab", environment: "sandbox", state: "unregistered", registeredAt: 1.5, lastSentAt: 2.25),
                DeviceItem(token: "fcm:1", platform: "android", environment: nil, state: "active", registeredAt: 3, lastSentAt: nil),
            ])
        ),
        ("SendAccepted", SendAccepted(notificationId: "n-1", devices: 2)),
        (
            "WebhookEndpoint",
            WebhookEndpoint(
                id: "crm", url: "https://crm.example/hook", filter: ["invite.*", "login-approval.approve"], rateLimit: 5, paused: false,
                state: "open", failureStreak: 10, nextProbeAt: 1_800_000_060, secrets: 2, seeded: false)
        ),
        (
            "WebhookEndpointList",
            WebhookEndpointList(items: [
                WebhookEndpoint(
                    id: "forward-all-1", url: "http://127.0.0.1:9/x", filter: ["*"], rateLimit: nil, paused: true, state: "paused",
                    failureStreak: 0, nextProbeAt: nil, secrets: 1, seeded: true)
            ])
        ),
        (
            "DeliveryDeadEvent",
            DeliveryDeadEvent(
                DeadDelivery(
                    action: AcceptedResponse(
                        id: "0193",
                        response: ActionResponse(
                            category: "invite", action: "accept", notificationID: "n1", user: "alice", payload: [("inviteId", .string("42"))]),
                        receivedAt: Date(timeIntervalSince1970: 1_800_000_000.5), status: .pending, attempts: 15,
                        nextAttemptAt: Date(timeIntervalSince1970: 1_800_000_000), lastError: "HTTP 503"),
                    endpointID: "crm", reason: "the upstream answered HTTP 410", at: Date(timeIntervalSince1970: 1_800_086_400)))
        ),
        (
            "NotificationReport",
            NotificationReport(
                notificationId: "n-1", user: "alice", category: "invite", sentAt: 1_800_000_000.5,
                devices: [
                    NotificationDevice(token: "ab", state: "sent", status: 200, reason: nil, attempts: 1),
                    NotificationDevice(token: "fcm:cd", platform: "android", state: "pending", status: nil, reason: nil, attempts: 0),
                ])
        ),
        ("NotificationDevice", NotificationDevice(token: "ef", state: "failed", status: 400, reason: "BadDeviceToken", attempts: 1)),
        (
            "ForwardedResponse",
            ForwardedResponse(
                ActionResponse(
                    category: "invite", action: "accept", notificationID: "n1", user: "alice",
                    payload: [("inviteId", .string("42")), ("seats", .int(2))]),
                id: "0193", receivedAt: Date(timeIntervalSince1970: 1_800_000_000.125))
        ),
    ]

    @Test(arguments: samples.indices)
    func eachShapeIsWhatTheContractSays(index: Int) throws {
        let (name, value) = Self.samples[index]
        let schema = try #require(Self.schemas[name] as? [String: Any], "openapi.yaml has no schema \(name)")
        let data = try JSONEncoder().encode(value)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        try Self.check(object, against: schema, at: name)
        #expect(try Self.decodesBack(value, from: data), "\(name) does not decode back to itself")
    }

    static func decodesBack<Shape: Codable & Equatable>(_ value: Shape, from data: Data) throws -> Bool {
        try JSONDecoder().decode(Shape.self, from: data) == value
    }

    /// Checks an object's members against a schema's `required` and `properties`, following
    /// `$ref`s and arrays of objects.
    static func check(_ object: [String: Any], against schema: [String: Any], at path: String) throws {
        if let branches = schema["oneOf"] as? [[String: Any]] {
            // The one branch whose members, required members and constants the object matches.
            let matching = branches.map(resolve).filter { branch in
                let properties = branch["properties"] as? [String: Any] ?? [:]
                let required = branch["required"] as? [String] ?? []
                let forbidden = (branch["not"] as? [String: Any])?["required"] as? [String] ?? []
                return object.keys.allSatisfy { properties[$0] != nil } && required.allSatisfy { object[$0] != nil }
                    && !forbidden.contains { object[$0] != nil }
                    && properties.allSatisfy { name, property in
                        guard let constant = (property as? [String: Any])?["const"] as? String, let value = object[name] else { return true }
                        return value as? String == constant
                    }
            }
            try #require(matching.count == 1, "\(path): \(object.keys.sorted()) matches \(matching.count) of the oneOf branches, not one")
            return try check(object, against: matching[0], at: path)
        }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for member in schema["required"] as? [String] ?? [] {
            #expect(object[member] != nil, "\(path): the required member \(member) is missing")
        }
        for (member, value) in object {
            let property = try #require(properties[member] as? [String: Any], "\(path): \(member) is not in the schema")
            let resolved = resolve(property)
            if let allowed = resolved["enum"] as? [String] {
                #expect((value as? String).map(allowed.contains) == true, "\(path).\(member): \(value) is not one of \(allowed)")
            }
            if let constant = resolved["const"] as? String { #expect(value as? String == constant, "\(path).\(member)") }
            let types = (resolved["type"] as? [String]) ?? (resolved["type"] as? String).map { [$0] } ?? []
            if !types.isEmpty {
                let found = jsonType(of: value)  // an integer is a number too
                #expect(
                    types.contains(found) || (found == "integer" && types.contains("number")),
                    "\(path).\(member) is \(found), the schema says \(types)")
            }
            if let items = value as? [Any], let itemSchema = (resolved["items"] as? [String: Any]).map(resolve) {
                for (index, item) in items.enumerated() {
                    if let item = item as? [String: Any] { try check(item, against: itemSchema, at: "\(path).\(member)[\(index)]") }
                }
            }
        }
    }

    static func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String else { return schema }
        return schemas[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
    }

    static func jsonType(of value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let number as NSNumber:
            // JSONSerialization reads `true` and `false` as NSNumbers of a Bool (Objective-C type "c").
            if String(cString: number.objCType) == "c" { return "boolean" }
            return number.doubleValue == number.doubleValue.rounded() ? "integer" : "number"
        case is String: return "string"
        case is [Any]: return "array"
        default: return "object"
        }
    }
}
