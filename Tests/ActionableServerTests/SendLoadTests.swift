import ActionableAPNs
import ActionableAPNsTesting
import ActionableFCMTesting
import ActionableSQLite
import ActionableTestSupport
import ActionableWire
import Foundation
import Testing

/// Sends through real `serve` processes to iOS and Android devices: a 202 means each device gets
/// the notification — each iOS device once across kill -9 of the server (counted at the stand-in,
/// which, as APNs, delivers an `apns-id` once), each Android device at least once (FCM has no such
/// id: a copy in flight when the server is killed may go twice, and the generated app posts it
/// under its notification's id, so the second replaces the first) — and once across two
/// instances sharing PostgreSQL.
@Suite(.timeLimit(.minutes(3)))
struct SendLoadTests {
    /// Five users with four devices each.
    static let users = (0..<5).map { "user-\($0)" }
    static func devices(of user: String) -> [String] {
        let index = users.firstIndex(of: user) ?? 0
        return (0..<4).map { String(format: "%064x", 0xD000_0000 + index * 16 + $0) }
    }

    /// Every send the tests may ask for (`k-N` and `p-N` to user N mod 5), acknowledged or not.
    static let attemptedSends: [String: String] = Dictionary(
        uniqueKeysWithValues: (0..<160).flatMap { [("k-\($0)", users[$0 % users.count]), ("p-\($0)", users[$0 % users.count])] })

    /// Each user's Android device: an FCM registration token.
    static func android(of user: String) -> String { "fcm-\(user):APA91b-\(user.utf8.count)" }

    static func register(port: Int) async throws {
        for user in users {
            for device in devices(of: user) { #expect(try await SendHarness.register(device, user: user, port: port) == 201) }
            #expect(try await SendHarness.registerAndroid(android(of: user), user: user, port: port) == 201)
        }
    }

    /// Each Android device of each notification in `sent` got it at least once (`exactly`: once),
    /// and nothing else was sent to FCM.
    static func expectEachAndroidDevice(_ sent: [String: String], fcm: FCMStandIn, exactly: Bool) async {
        let messages = await fcm.received.messages
        let copies = Dictionary(grouping: messages) { "\($0.data["notificationId"] ?? "?") \($0.token)" }
        for (notification, user) in sent {
            let count = copies["\(notification) \(android(of: user))"]?.count ?? 0
            #expect(exactly ? count == 1 : count >= 1, "\(notification) to \(android(of: user)): \(count)")
        }
        let attempted = Set(attemptedSends.map { "\($0.key) \(android(of: $0.value))" })
        #expect(Set(copies.keys).isSubset(of: attempted), "\(Set(copies.keys).subtracting(attempted))")
    }

    static func send(_ id: String, to user: String, port: Int) async -> Int? {
        let body = #"{"user":"\#(user)","category":"invite","notificationId":"\#(id)","alert":"Dinner?","payload":{"inviteId":"\#(id)"}}"#
        return try? await SendHarness.call("POST", "/v1/send", port: port, json: body).status
    }

    /// Each device of each notification in `sent` was delivered exactly once, and nothing else was.
    static func expectEachDeviceOnce(_ sent: [String: String], standIn: APNsStandIn) async {
        let delivered = await standIn.received.notifications
        let ids = Dictionary(grouping: delivered, by: \.apnsID)
        var expected: Set<String> = []
        for (notification, user) in sent {
            for device in devices(of: user) {
                let apnsID = APNsNotification.id(notificationID: notification, deviceToken: device).uuidString.lowercased()
                expected.insert(apnsID)
                #expect(ids[apnsID]?.count == 1, "\(notification) to \(device.suffix(4))")
                #expect(ids[apnsID]?.first?.deviceToken == device)
            }
        }
        // Nothing else: a notification the client never heard acknowledged (the server was killed
        // after recording it, before answering) may be sent too, but only to its own user's devices.
        var attempted: Set<String> = []
        for (notification, user) in attemptedSends {
            for device in devices(of: user) {
                attempted.insert(APNsNotification.id(notificationID: notification, deviceToken: device).uuidString.lowercased())
            }
        }
        #expect(Set(ids.keys).isSubset(of: attempted), "\(Set(ids.keys).subtracting(attempted).count) copies no send asked for")
        #expect(delivered.count == ids.count)
    }

    actor Acknowledged {
        private(set) var sent: [String: String] = [:]
        var count: Int { sent.count }
        /// Adds an acknowledged send; how many there are now.
        func add(_ id: String, _ user: String) -> Int {
            sent[id] = user
            return sent.count
        }
    }

    /// A point the test waits for, once.
    actor Halfway {
        private var done = false
        private var waiters: [CheckedContinuation<Void, Never>] = []
        func reach() {
            done = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
        func reached() async throws {
            try await within("halfway") { await self.park() }
        }
        private func park() async {
            if done { return }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    @Test func everyAcknowledgedSendReachesEachDeviceOnceAcrossKillNine() async throws {
        try await SendHarness.run { harness in
            let port = try ServerProcess.freePort()
            // A short lease, so the copies the killed server had claimed are taken over soon.
            let flags = harness.sendingFlags + ["--delivery-lease", "3s", "--forward-timeout", "2s", "--apns-timeout", "2s", "--fcm-timeout", "2s"]
            let server = try await ServerProcess.serve(in: harness.directory, port: port, extra: flags)
            defer { server.signal() }
            try await Self.register(port: port)
            // 160 notifications, 8 senders at once. Once 40 are acknowledged the senders hold until
            // the stand-in has taken 20 copies, then go on as the server is killed: sends are still
            // being accepted, and copies are being sent.
            let acknowledged = Acknowledged()
            let halfway = Halfway()
            let standIn = harness.standIn
            async let killer: Void = {
                try await halfway.reached()
                await harness.standIn.received.wait(untilDelivered: 20)
                server.signal(SIGKILL)
            }()
            await withTaskGroup(of: Void.self) { group in
                for sender in 0..<8 {
                    group.addTask {
                        for index in stride(from: sender, to: 160, by: 8) {
                            let user = Self.users[index % Self.users.count]
                            if await acknowledged.count >= 40 {
                                // Held until copies are being sent; then the kill comes as sends go on.
                                await halfway.reach()
                                await standIn.received.wait(untilDelivered: 20)
                            }
                            guard await Self.send("k-\(index)", to: user, port: port) == 202 else { continue }
                            _ = await acknowledged.add("k-\(index)", user)
                        }
                    }
                }
            }
            try await killer
            await server.exit()
            #expect(server.terminationReason == .uncaughtSignal)
            let sent = await acknowledged.sent
            #expect(sent.count >= 40 && sent.count < 160, "the kill came mid-burst: \(sent.count) acknowledged")

            // Restarted, the server sends what it had not; its lease on the copies in flight ran
            // out (--delivery-lease), so they are sent again, with the same apns-id.
            let restarted = try await ServerProcess.serve(in: harness.directory, port: port, extra: flags)
            defer { restarted.signal() }
            for id in sent.keys {
                let report = try await SendHarness.report(of: id, port: port) { $0.settled }
                #expect(report.devices.allSatisfy { $0.state == "sent" }, "\(id): \(report.devices.map(\.state))")
            }
            await Self.expectEachDeviceOnce(sent, standIn: harness.standIn)
            await Self.expectEachAndroidDevice(sent, fcm: harness.fcm, exactly: false)
            let store = try await SQLiteActionStore(path: harness.directory.appendingPathComponent(".actionable/actionable.sqlite").path)
            #expect(try await store.integrityCheck() == "ok")
        }
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"] != nil,
            "needs ACTIONABLE_TEST_POSTGRES_URL (scripts/test sets it)"))
    func twoInstancesSharingPostgreSQLSendEachCopyOnce() async throws {
        try await SendHarness.run { harness in
            let url = TakeoverTests.isolated(try #require(ProcessInfo.processInfo.environment["ACTIONABLE_TEST_POSTGRES_URL"]))
            let ports = try [ServerProcess.freePort(), ServerProcess.freePort()]
            let first = try await ServerProcess.serve(in: harness.directory, port: ports[0], extra: ["--storage", url] + harness.sendingFlags)
            defer { first.signal() }
            let second = try await ServerProcess.serve(in: harness.directory, port: ports[1], extra: ["--storage", url] + harness.sendingFlags)
            defer { second.signal() }
            try await Self.register(port: ports[0])
            // Each of 40 notifications sent twice at once, once through each instance: one 202
            // and one 200, and both instances' workers claim copies from the same queue.
            var statuses: [String: [Int?]] = [:]
            var sent: [String: String] = [:]
            for batch in stride(from: 0, to: 40, by: 8) {
                let answers = await withTaskGroup(of: (String, Int?).self) { group in
                    for index in batch..<batch + 8 {
                        let user = Self.users[index % Self.users.count]
                        for port in ports { group.addTask { ("p-\(index)", await Self.send("p-\(index)", to: user, port: port)) } }
                    }
                    return await group.reduce(into: [(String, Int?)]()) { $0.append($1) }
                }
                for (id, status) in answers { statuses[id, default: []].append(status) }
                for index in batch..<batch + 8 { sent["p-\(index)"] = Self.users[index % Self.users.count] }
            }
            for (id, answers) in statuses {
                #expect(answers.sorted { ($0 ?? 0) < ($1 ?? 0) } == [200, 202], "\(id): \(answers)")
            }
            for id in sent.keys {
                let report = try await SendHarness.report(of: id, port: ports[1]) { $0.settled }
                #expect(report.devices.count == 5 && report.devices.allSatisfy { $0.state == "sent" && $0.attempts == 1 })
                #expect(report.devices.filter { $0.platform == "android" }.count == 1)
            }
            await Self.expectEachDeviceOnce(sent, standIn: harness.standIn)
            await Self.expectEachAndroidDevice(sent, fcm: harness.fcm, exactly: true)
            // One attempt each (checked above): the lease kept every copy to one worker of one instance.
        }
    }
}
