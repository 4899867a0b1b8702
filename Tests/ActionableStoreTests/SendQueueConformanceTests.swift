import ActionableStore
import ActionableWire
import Foundation
import Testing

/// The notifications sent and their copies, on every driver.
struct SendQueueConformanceTests {
    typealias Driver = StoreConformanceTests.Driver
    static let phone = String(repeating: "a1", count: 32)
    static let tablet = String(repeating: "a2", count: 32)
    static func at(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    static func notification(_ id: String, user: String = "alice", at seconds: TimeInterval = 100) -> NewNotification {
        NewNotification(
            notificationID: id, user: user, category: "invite", payloadJSON: #"{"inviteId":"42"}"#,
            apnsPayload: #"{"aps":{"alert":"Dinner?","category":"invite"},"inviteId":"42"}"#, collapseID: id == "n-1" ? "c-1" : nil,
            expiration: id == "n-1" ? Self.at(9_000) : nil, priority: id == "n-1" ? 5 : nil, createdAt: Self.at(seconds))
    }

    static func devices(_ store: any ActionStore) async throws -> [Device] {
        _ = try await store.register(token: phone, user: "alice", environment: .production, at: at(10))
        _ = try await store.register(token: tablet, user: "alice", environment: .sandbox, at: at(20))
        return try await store.devices(of: "alice")
    }

    @Test(arguments: Driver.available)
    func aNotificationIsRecordedOnceWithACopyPerDevice(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        #expect(try await store.recordNotification(Self.notification("n-1"), devices: devices) == .recorded(devices: 2))
        #expect(try await store.recordNotification(Self.notification("n-1"), devices: devices) == .recordedBefore(devices: 2))
        #expect(try await store.recordNotification(Self.notification("n-1", user: "bob"), devices: []) == .otherUser)
        let stored = try #require(try await store.notification(id: "n-1"))
        #expect(stored.notification == Self.notification("n-1"))
        #expect(stored.sends.map(\.token) == [Self.phone, Self.tablet])
        #expect(stored.sends.map(\.environment) == [.production, .sandbox])
        #expect(stored.sends.allSatisfy { $0.state == .pending && $0.attempts == 0 && $0.status == nil })
        #expect(try await store.notification(id: "n-unknown") == nil)
    }

    /// Each platform's transport claims only its own copies; a notification keeps its FCM message;
    /// a copy and a device keep their platform.
    @Test(arguments: Driver.available)
    func eachPlatformClaimsItsOwnCopies(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let android = "fcm-token:APA91b_x-1.2"
        _ = try await store.register(token: Self.phone, user: "alice", environment: .production, at: Self.at(10))
        #expect(
            try await store.register(token: android, user: "alice", platform: .android, environment: .production, at: Self.at(20), limits: .none)
                == .created)
        #expect(
            try await store.register(token: android, user: "alice", platform: .android, environment: .production, at: Self.at(25), limits: .none)
                == .known)
        let devices = try await store.devices(of: "alice")
        #expect(devices.map(\.platform) == [.ios, .android] && devices.map(\.token) == [Self.phone, android])
        var notification = Self.notification("n-both")
        notification.fcmMessage = #"{"message":{"data":{"category":"invite","notificationId":"n-both"},"android":{"priority":"high"}}}"#
        #expect(try await store.recordNotification(notification, devices: devices) == .recorded(devices: 2))
        let stored = try #require(try await store.notification(id: "n-both"))
        #expect(stored.notification.fcmMessage == notification.fcmMessage)
        #expect(Dictionary(uniqueKeysWithValues: stored.sends.map { ($0.token, $0.platform) }) == [Self.phone: .ios, android: .android])
        let androids = try await store.claimDueSends(now: Self.at(200), limit: 10, lease: 30, owner: "fcm", platform: .android)
        #expect(androids.map(\.token) == [android] && androids.first?.platform == .android)
        #expect(androids.first?.notification.fcmMessage == notification.fcmMessage)
        let apple = try await store.claimDueSends(now: Self.at(200), limit: 10, lease: 30, owner: "apns", platform: .ios)
        #expect(apple.map(\.token) == [Self.phone] && apple.first?.platform == .ios)
        #expect(try await store.claimDueSends(now: Self.at(200), limit: 10, lease: 30, owner: "fcm", platform: .android).isEmpty)
        // FCM's word unregisters the device, the copy records it; registering again revives it.
        try await store.finishSend(
            notificationID: "n-both", token: android, owner: "fcm", outcome: .failed(status: 404, reason: "UNREGISTERED"), at: Self.at(210))
        #expect(try await store.markUnregistered(token: android, since: Self.at(200), at: Self.at(210)))
        #expect(try await store.devices(of: "alice").first { $0.token == android }?.state == .unregistered)
        #expect(
            try await store.register(token: android, user: "alice", platform: .android, environment: .production, at: Self.at(300), limits: .none)
                == .revived)
        #expect(try await store.notification(id: "n-both")?.sends.first { $0.token == android }?.state == .failed)
    }

    @Test(arguments: Driver.available)
    func eachCopyIsClaimedOnceUnderItsLeaseAndFinishedOnce(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        _ = try await store.recordNotification(Self.notification("n-1"), devices: devices)
        _ = try await store.recordNotification(Self.notification("n-2", at: 200), devices: devices)
        #expect(try await store.claimDueSends(now: Self.at(50), limit: 10, lease: 60, owner: "w1").isEmpty)  // not due yet
        let first = try await store.claimDueSends(now: Self.at(150), limit: 10, lease: 1_000, owner: "w1")
        #expect(first.map(\.token) == [Self.phone, Self.tablet])
        #expect(first.allSatisfy { $0.notification.notificationID == "n-1" && $0.attempts == 1 })
        #expect(first.first?.notification == Self.notification("n-1"))
        // Leased: another worker gets only what is not.
        let second = try await store.claimDueSends(now: Self.at(250), limit: 10, lease: 1_000, owner: "w2")
        #expect(second.map(\.notification.notificationID) == ["n-2", "n-2"])

        try await store.finishSend(notificationID: "n-1", token: Self.phone, owner: "w1", outcome: .sent(status: 200), at: Self.at(160))
        try await store.finishSend(
            notificationID: "n-1", token: Self.tablet, owner: "w2", outcome: .sent(status: 200), at: Self.at(160))  // not w2's: ignored
        try await store.finishSend(
            notificationID: "n-1", token: Self.tablet, owner: "w1", outcome: .unregistered(status: 410, reason: "Unregistered"), at: Self.at(160))
        try await store.finishSend(
            notificationID: "n-2", token: Self.phone, owner: "w2", outcome: .failed(status: 400, reason: "BadDeviceToken"), at: Self.at(260))
        try await store.finishSend(
            notificationID: "n-2", token: Self.tablet, owner: "w2", outcome: .retry(at: Self.at(400), status: 503, reason: "ServiceUnavailable"),
            at: Self.at(260))
        let one = try #require(try await store.notification(id: "n-1"))
        #expect(one.sends.map(\.state) == [.sent, .unregistered])
        #expect(one.sends.map(\.status) == [200, 410])
        #expect(one.sends.map(\.reason) == [nil, "Unregistered"])
        let two = try #require(try await store.notification(id: "n-2"))
        #expect(two.sends.map(\.state) == [.failed, .pending])
        #expect(two.sends.last?.reason == "ServiceUnavailable")
        // A sent copy dates its device's last send.
        #expect(try await store.devices(of: "alice").first { $0.token == Self.phone }?.lastSentAt == Self.at(160))
        // The retried copy comes back when due, and only then; finished copies never do.
        #expect(try await store.claimDueSends(now: Self.at(399), limit: 10, lease: 60, owner: "w3").isEmpty)
        let retried = try await store.claimDueSends(now: Self.at(400), limit: 10, lease: 60, owner: "w3")
        #expect(retried.map(\.token) == [Self.tablet])
        #expect(retried.first?.attempts == 2)
    }

    @Test(arguments: Driver.available)
    func anExpiredLeaseIsTakenOver(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        _ = try await store.recordNotification(Self.notification("n-1"), devices: Array(devices.prefix(1)))
        #expect(try await store.claimDueSends(now: Self.at(100), limit: 10, lease: 60, owner: "crashed").count == 1)
        #expect(try await store.claimDueSends(now: Self.at(159), limit: 10, lease: 60, owner: "w2").isEmpty)
        let taken = try await store.claimDueSends(now: Self.at(161), limit: 10, lease: 60, owner: "w2")
        #expect(taken.count == 1 && taken.first?.attempts == 2)
        // The crashed owner's late answer changes nothing; the new owner's does.
        try await store.finishSend(notificationID: "n-1", token: Self.phone, owner: "crashed", outcome: .sent(status: 200), at: Self.at(170))
        #expect(try await store.notification(id: "n-1")?.sends.first?.state == .pending)
        try await store.finishSend(notificationID: "n-1", token: Self.phone, owner: "w2", outcome: .sent(status: 200), at: Self.at(170))
        #expect(try await store.notification(id: "n-1")?.sends.first?.state == .sent)
    }

    @Test(arguments: Driver.available)
    func concurrentClaimsNeverShareACopy(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        for index in 0..<20 { _ = try await store.recordNotification(Self.notification("n-\(index + 10)"), devices: devices) }
        let claims = try await withThrowingTaskGroup(of: [ClaimedSend].self) { group in
            for worker in 0..<6 {
                group.addTask { try await store.claimDueSends(now: Self.at(500), limit: 10, lease: 60, owner: "w\(worker)") }
            }
            return try await group.reduce(into: [ClaimedSend]()) { $0 += $1 }
        }
        let keys = claims.map { "\($0.notification.notificationID)/\($0.token)" }
        #expect(keys.count == 40)
        #expect(Set(keys).count == 40)
    }

    @Test(arguments: Driver.available)
    func oneProviderTokenIsSharedUntilItIsDueAndTwoOffersAtOnceAgreeOnOne(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        // The first offer is stored; a second instance's offer, issued later, takes it.
        let first = try await store.shareProviderToken(keyID: "K1", candidate: "t-1", issuedAt: Self.at(1_000), reuseIfIssuedAfter: Self.at(0))
        #expect(first == SharedProviderToken(token: "t-1", issuedAt: Self.at(1_000)))
        let second = try await store.shareProviderToken(keyID: "K1", candidate: "t-2", issuedAt: Self.at(1_010), reuseIfIssuedAfter: Self.at(10))
        #expect(second == first)
        // Another key has its own.
        #expect(
            try await store.shareProviderToken(keyID: "K2", candidate: "u-1", issuedAt: Self.at(1_020), reuseIfIssuedAfter: Self.at(0)).token == "u-1"
        )
        // Once the stored one is due (issued at or before the bound), the offer replaces it.
        let renewed = try await store.shareProviderToken(keyID: "K1", candidate: "t-3", issuedAt: Self.at(4_000), reuseIfIssuedAfter: Self.at(1_000))
        #expect(renewed == SharedProviderToken(token: "t-3", issuedAt: Self.at(4_000)))
        // Eight offers at once, each due to replace t-3: all answer the same token.
        let answers = try await withThrowingTaskGroup(of: SharedProviderToken.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await store.shareProviderToken(
                        keyID: "K1", candidate: "c-\(index)", issuedAt: Self.at(7_000 + Double(index)), reuseIfIssuedAfter: Self.at(4_000))
                }
            }
            return try await group.reduce(into: [SharedProviderToken]()) { $0.append($1) }
        }
        #expect(Set(answers).count == 1 && answers.first?.token.hasPrefix("c-") == true)
    }

    /// A copy whose lease ran out without an outcome is counted when claimed again.
    @Test(arguments: Driver.available)
    func expiredLeasesOfACopyAreCounted(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        _ = try await store.recordNotification(Self.notification("n-1"), devices: [devices[0]])
        var time: TimeInterval = 150
        for expected in 0..<3 {
            let claimed = try await store.claimDueSends(now: Self.at(time), limit: 10, lease: 60, owner: "w\(expected)")
            #expect(claimed.map(\.expiredLeases) == [expected])
            time += 61
        }
    }
}

extension SendQueueConformanceTests {
    /// A batch of outcomes is recorded as each alone would be, in one call: a sent copy dates its
    /// device, a retry is due again at its time, and a copy another owner holds is left alone.
    @Test(arguments: Driver.available)
    func aBatchOfOutcomesIsRecordedAsEachAloneWouldBe(driver: Driver) async throws {
        let (store, cleanup) = try await StoreConformanceTests.makeStore(driver)
        defer { cleanup() }
        let devices = try await Self.devices(store)
        _ = try await store.recordNotification(Self.notification("n-1"), devices: devices)
        _ = try await store.recordNotification(Self.notification("n-2", at: 200), devices: [devices[0]])
        let mine = try await store.claimDueSends(now: Self.at(150), limit: 2, lease: 1_000, owner: "w1")
        #expect(mine.map(\.notification.notificationID) == ["n-1", "n-1"])
        let theirs = try await store.claimDueSends(now: Self.at(250), limit: 10, lease: 1_000, owner: "w2")
        #expect(theirs.map(\.notification.notificationID) == ["n-2"])
        try await store.finishSends(
            [
                FinishedSend(notificationID: "n-1", token: Self.phone, outcome: .sent(status: 200), at: Self.at(160)),
                FinishedSend(
                    notificationID: "n-1", token: Self.tablet, outcome: .retry(at: Self.at(400), status: 503, reason: "busy"), at: Self.at(160)),
                FinishedSend(notificationID: "n-2", token: Self.phone, outcome: .failed(status: 400, reason: "w1's word"), at: Self.at(160)),
            ], owner: "w1")
        let first = try #require(try await store.notification(id: "n-1"))
        #expect(first.sends.map(\.state) == [.sent, .pending])
        #expect(first.sends.map(\.status) == [200, 503])
        #expect(try await store.devices(of: "alice").first { $0.token == Self.phone }?.lastSentAt == Self.at(160))
        #expect(try await store.notification(id: "n-2")?.sends.map(\.state) == [.pending])  // w2's lease stands
        #expect(try await store.claimDueSends(now: Self.at(399), limit: 10, lease: 60, owner: "w3").isEmpty)
        #expect(try await store.claimDueSends(now: Self.at(401), limit: 10, lease: 60, owner: "w3").map(\.token) == [Self.tablet])
        try await store.finishSends([], owner: "w1")  // nothing to record: no write, no error
    }
}
