import ActionableAPNs
import ActionableWire
import Foundation
import Testing

@testable import ActionableAPNsTesting

/// The request APNs receives, and how its answers are read.
struct NotificationTests {
    static let device = String(repeating: "ab", count: 32)

    @Test func everyHeaderIsWritten() {
        let id = APNsNotification.id(notificationID: "n1", deviceToken: Self.device)
        let alert = APNsNotification(
            deviceToken: Self.device, payload: Array(#"{"aps":{}}"#.utf8), id: id, expiration: Date(timeIntervalSince1970: 1_900_000_000),
            collapseID: "invite-42")
        #expect(
            alert.headers(topic: "com.example.app").map { "\($0.0): \($0.1)" } == [
                "apns-push-type: alert", "apns-priority: 10", "apns-topic: com.example.app", "apns-id: \(id.uuidString.lowercased())",
                "apns-expiration: 1900000000", "apns-collapse-id: invite-42",
            ])
        let silent = APNsNotification(deviceToken: Self.device, payload: [], pushType: .background, id: id)
        let headers = Dictionary(uniqueKeysWithValues: silent.headers(topic: "t"))
        #expect(headers["apns-priority"] == "5" && headers["apns-push-type"] == "background" && headers["apns-expiration"] == "0")
        #expect(headers["apns-collapse-id"] == nil)
    }

    @Test func theApnsIDIsTheSameForTheSameNotificationAndDevice() {
        let first = APNsNotification.id(notificationID: "n1", deviceToken: Self.device)
        #expect(APNsNotification.id(notificationID: "n1", deviceToken: Self.device) == first)
        #expect(APNsNotification.id(notificationID: "n2", deviceToken: Self.device) != first)
        #expect(APNsNotification.id(notificationID: "n1", deviceToken: String(repeating: "cd", count: 32)) != first)
        #expect(first.uuidString.lowercased().dropFirst(14).first == "5")  // version 5
    }

    @Test func whatAPNsWouldRefuseIsCaughtBeforeSending() {
        let id = UUID()
        #expect(APNsNotification(deviceToken: Self.device, payload: Array(repeating: 32, count: 4096), id: id).problem == nil)
        #expect(APNsNotification(deviceToken: Self.device, payload: Array(repeating: 32, count: 4097), id: id).problem != nil)
        #expect(
            APNsNotification(deviceToken: Self.device, payload: [], id: id, collapseID: String(repeating: "x", count: 65)).problem != nil)
        #expect(APNsNotification(deviceToken: "not-hex", payload: [], id: id).problem != nil)
    }

    /// Apple's timestamp is a peer's number: absurd ones never trap and never unregister a device
    /// that registered again — a future one is the time of the answer, a negative one 1970, one
    /// that is not a finite number is left out (the reason survives it).
    @Test(arguments: [
        ("1e308", 1_800_000_000.0), ("9223372036854775807", 1_800_000_000), ("-5", 0), ("\"1700000000000\"", 1_700_000_000),
        ("253402300799000", 1_800_000_000), ("0", 0),
    ])
    func absurdTimestampsAreHeldWithinTheirRange(timestamp: String, seconds: Double) {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let body = #"{"reason":"Unregistered","timestamp":"# + timestamp + "}"
        #expect(APNsAnswer(status: 410, body: Array(body.utf8), now: now) == .unregistered(since: Date(timeIntervalSince1970: seconds)))
    }

    @Test(arguments: [#"{"reason":"Unregistered","timestamp":1e999}"#, #"{"reason":"Unregistered","timestamp":{"a":1}}"#, "\u{0}garbage"])
    func unreadableTimestampsAreLeftOut(body: String) {
        #expect(APNsAnswer(status: 410, body: Array(body.utf8)) == .unregistered(since: nil))
        guard case .retry(_, let after) = APNsAnswer(status: 503, body: Array(body.utf8), retryAfter: .nan) else {
            Issue.record("a 503 is retried")
            return
        }
        #expect(after == nil)  // a retry hint that is not a number is left out
    }

    /// APNs' reason reaches the log as one line, its control characters escaped.
    @Test func aReasonWithANewlineCannotForgeALogLine() {
        let body = #"{"reason":"bad\n2026-11-28T00:00:00Z critical forged\u2028line\\"}"#
        #expect(
            APNsAnswer(status: 400, body: Array(body.utf8))
                == .failed(status: 400, reason: #"bad\n2026-11-28T00:00:00Z critical forged\u{2028}line\\"#))
        #expect(PeerText.printable(String(repeating: "é", count: 300)).count == 201)
        #expect(PeerText.printable("BadDeviceToken") == "BadDeviceToken")
        #expect(PeerText.printable("\u{7F}\u{85}\t") == #"\u{7F}\u{85}\t"#)
        #expect(PeerText.printable("a\u{202E}b\u{200B}c\u{2066}") == #"a\u{202E}b\u{200B}c\u{2066}"#)
    }

    @Test func answersAreReadAsAppleWritesThem() {
        func answer(_ status: Int, _ body: String, retryAfter: TimeInterval? = nil) -> APNsAnswer {
            APNsAnswer(status: status, body: Array(body.utf8), retryAfter: retryAfter)
        }
        #expect(answer(200, "") == .sent)
        #expect(
            answer(410, #"{"reason":"Unregistered","timestamp":1700000000123}"#)
                == .unregistered(since: Date(timeIntervalSince1970: 1_700_000_000.123)))
        #expect(answer(400, #"{"reason":"BadDeviceToken"}"#) == .badDevice(reason: "BadDeviceToken"))
        #expect(answer(400, #"{"reason":"DeviceTokenNotForTopic"}"#) == .badDevice(reason: "DeviceTokenNotForTopic"))
        #expect(answer(403, #"{"reason":"ExpiredProviderToken"}"#) == .expiredProviderToken)
        #expect(answer(429, #"{"reason":"TooManyRequests"}"#, retryAfter: 3) == .retry(reason: "TooManyRequests", retryAfter: 3))
        #expect(answer(503, "not json") == .retry(reason: "HTTP 503", retryAfter: nil))
        #expect(answer(429, #"{"reason":"TooManyProviderTokenUpdates"}"#) == .failed(status: 429, reason: "TooManyProviderTokenUpdates"))
        #expect(answer(400, #"{"reason":"BadTopic"}"#) == .failed(status: 400, reason: "BadTopic"))
    }
}

/// The stand-in delivers a resent copy once, as Apple does, and counts it.
struct ReceivedNotificationsTests {
    @Test func aCopyOfAnApnsIDIsCountedNotDelivered() async {
        let log = ReceivedNotifications()
        let first = ReceivedNotification(
            deviceToken: "ab", apnsID: "id-1", topic: "t", pushType: "alert", priority: 10, collapseID: nil, payload: "{}")
        var second = first
        second.apnsID = "id-2"
        await log.append(first)
        await log.append(first)
        await log.append(second)
        #expect(await log.notifications == [first, second])
        #expect(await log.count(apnsID: "id-1") == 2)
        #expect(await log.requests == 3)
    }
}
