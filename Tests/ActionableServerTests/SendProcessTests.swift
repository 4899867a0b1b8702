import ActionableAPNsTesting
import ActionableTestSupport
import ActionableWire
import Foundation
import Testing

/// Sending through a real `serve` process to the stand-in APNs over HTTP/2 and TLS.
@Suite(.timeLimit(.minutes(3)))
struct SendProcessTests {
    static let phone = String(repeating: "a1", count: 32)
    static let tablet = String(repeating: "b2", count: 32)

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aSentNotificationReachesEachDeviceOnceAndItsTapForwardsTheRecordedPayload() async throws {
        try await SendHarness.run { harness in
            try await ScriptedUpstream.run(answer: 204) { upstream, upstreamPort in
                let port = try ServerProcess.freePort()
                let forward = [
                    "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret",
                    "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
                ]
                let server = try await ServerProcess.serve(in: harness.directory, port: port, extra: harness.sendingFlags + forward)
                defer { server.signal() }
                #expect(try await SendHarness.register(Self.phone, user: "alice", port: port) == 201)
                #expect(try await SendHarness.register(Self.tablet, user: "alice", port: port) == 201)
                let body = #"""
                    {"user":"alice","category":"invite","notificationId":"n-1","alert":{"title":"Dinner?","body":"Sam invited you"},
                     "payload":{"inviteId":"42","eventName":"Dinner"},"badge":"auto","collapseId":"invite-42","threadId":"invites",
                     "mutableContent":true}
                    """#
                let sent = try await SendHarness.call("POST", "/v1/send", port: port, json: body)
                #expect(sent.status == 202)
                #expect(try JSONDecoder().decode(SendAccepted.self, from: sent.body) == SendAccepted(notificationId: "n-1", devices: 2))
                // The same id again: 200, nothing sent twice.
                let again = try await SendHarness.call("POST", "/v1/send", port: port, json: body)
                #expect(again.status == 200)
                #expect(try JSONDecoder().decode(SendAccepted.self, from: again.body) == SendAccepted(notificationId: "n-1", devices: 2))

                await harness.standIn.received.wait(untilDelivered: 2)
                let report = try await SendHarness.report(of: "n-1", port: port) { $0.settled }
                #expect(report.user == "alice" && report.category == "invite")
                for device in [Self.phone, Self.tablet] {
                    let copy = try #require(report.device(device))
                    #expect(copy.state == "sent" && copy.status == 200 && copy.attempts == 1)
                }
                let received = await harness.standIn.received.notifications
                #expect(received.count == 2 && Set(received.map(\.deviceToken)) == [Self.phone, Self.tablet])
                // (A copy resent after a lost answer carries its apns-id and is dropped: still once each.)
                let first = try #require(received.first)
                #expect(first.topic == "com.example.app" && first.pushType == "alert" && first.priority == 10 && first.collapseID == "invite-42")
                let payload = try Self.json(Data(first.payload.utf8))
                let aps = try #require(payload["aps"] as? [String: Any])
                #expect(aps["category"] as? String == "invite" && aps["badge"] as? Int == 1 && aps["thread-id"] as? String == "invites")
                #expect(aps["mutable-content"] as? Int == 1)
                #expect(payload["inviteId"] as? String == "42")
                let actionToken = try #require(payload["actionToken"] as? String)
                // Each device got its own apns-id, the same one a resend would carry.
                #expect(Set(received.map(\.apnsID)).count == 2)

                // The devices' last send is dated.
                let devices = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
                #expect(devices.items.count == 2 && devices.items.allSatisfy { $0.lastSentAt != nil })
                // Registering again (every launch) answers the stored device, its last send included.
                let renewed = try await SendHarness.call(
                    "POST", "/v1/devices", port: port, bearer: try await SendHarness.appJWT("alice"),
                    json: #"{"token":"\#(Self.phone)","environment":"production"}"#)
                let renewedItem = try JSONDecoder().decode(DeviceItem.self, from: renewed.body)
                #expect(renewed.status == 200 && renewedItem.lastSentAt != nil)
                // The sends are counted by outcome.
                let metrics = try await SendHarness.call("GET", "/metrics", port: port, bearer: SendHarness.adminToken)
                #expect(String(decoding: metrics.body, as: UTF8.self).contains(#"actionable_apns_sends_total{outcome="sent"} 2"#))

                // A tap that rewrote the payload is taken, and what is stored (and forwarded) is the
                // payload the server sent.
                let tap = #"{"category":"invite","action":"accept","actionToken":"\#(actionToken)","payload":{"inviteId":"999"}}"#
                let accepted = try await SendHarness.call("POST", "/v1/actions", port: port, bearer: try await SendHarness.appJWT("alice"), json: tap)
                #expect(accepted.status == 202)
                let answer = try JSONDecoder().decode(ActionAnswer.self, from: accepted.body)
                try await upstream.delivered(answer.id)
                let forwarded = try Self.json(try #require(await upstream.bodies[answer.id]))
                let forwardedPayload = try #require(forwarded["payload"] as? [String: Any])
                #expect(forwardedPayload["inviteId"] as? String == "42" && forwardedPayload["eventName"] as? String == "Dinner")
                // SIGTERM: the send worker stops waiting, the APNs connections close, the process exits 0.
                #expect(await server.stop() == 0)
            }
        }
    }

    @Test func applesAnswersUpdateTheRegistryAndRetriesFollowTheSchedule() async throws {
        let stale = String(repeating: "c3", count: 32)  // 410 dated before its registration: stays active
        let gone = String(repeating: "d4", count: 32)  // 410 dated after it: unregistered
        let sandbox = String(repeating: "e5", count: 32)  // BadDeviceToken: a sandbox token sent as production
        let busy = String(repeating: "f6", count: 32)  // 429, every time
        let down = String(repeating: "a7", count: 32)  // 503, every time
        try await SendHarness.run(
            unregistered: [stale: Date(timeIntervalSince1970: 1_600_000_000), gone: Date(timeIntervalSince1970: 4_000_000_000)],
            failures: [sandbox: (400, "BadDeviceToken"), busy: (429, "TooManyRequests"), down: (503, "ServiceUnavailable")]
        ) { harness in
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(
                in: harness.directory, port: port, extra: harness.sendingFlags + ["--retry-first-delay", "1s", "--retry-for", "10s"])
            defer { server.signal() }
            for device in [Self.phone, stale, gone, sandbox, busy, down] {
                #expect(try await SendHarness.register(device, user: "carol", port: port) == 201)
            }
            let invite = #""category":"invite","alert":"Dinner?","payload":{"inviteId":"42"}"#
            #expect(
                try await SendHarness.call("POST", "/v1/send", port: port, json: #"{"user":"carol","notificationId":"r-1",\#(invite)}"#).status == 202
            )
            let report = try await SendHarness.report(of: "r-1", port: port) { $0.settled }
            #expect(report.device(Self.phone)?.state == "sent")
            #expect(report.device(stale)?.state == "unregistered" && report.device(stale)?.status == 410)
            #expect(report.device(gone)?.state == "unregistered")
            #expect(report.device(sandbox)?.state == "failed" && report.device(sandbox)?.reason == "BadDeviceToken")
            for device in [busy, down] {
                let copy = try #require(report.device(device))
                #expect(copy.state == "failed" && copy.attempts >= 2, "retried on the schedule, then given up: \(copy)")
                #expect(copy.reason?.hasPrefix("gave up after") == true)
            }
            _ = try await server.output(containing: "likely the wrong environment")

            // The registry: the stale 410 left its device active; the later one and the bad
            // token unregistered theirs.
            let list = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/carol", port: port).body)
            let states = Dictionary(uniqueKeysWithValues: list.items.map { ($0.token, $0.state) })
            #expect(states == [Self.phone: "active", stale: "active", gone: "unregistered", sandbox: "unregistered", busy: "active", down: "active"])
            // The next send goes to the active devices only; registering again revives one.
            let next = try await SendHarness.call("POST", "/v1/send", port: port, json: #"{"user":"carol","notificationId":"r-2",\#(invite)}"#)
            #expect(try JSONDecoder().decode(SendAccepted.self, from: next.body).devices == 4)
            #expect(try await SendHarness.register(gone, user: "carol", port: port) == 201)
            let third = try await SendHarness.call("POST", "/v1/send", port: port, json: #"{"user":"carol","notificationId":"r-3",\#(invite)}"#)
            #expect(try JSONDecoder().decode(SendAccepted.self, from: third.body).devices == 5)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aServerWhoseAPNsIsDownStillShutsDownAtOnce() async throws {
        try await SendHarness.run { harness in
            // APNs unreachable: nothing listens on this port.
            let down = try ServerProcess.freePort()
            var flags = harness.sendingFlags
            if let url = flags.firstIndex(of: "--apns-url") { flags[url + 1] = "https://127.0.0.1:\(down)" }
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(in: harness.directory, port: port, extra: flags)
            #expect(try await SendHarness.register(Self.phone, user: "dora", port: port) == 201)
            let body = #"{"user":"dora","category":"invite","notificationId":"d-1","alert":"Dinner?","payload":{"inviteId":"42"}}"#
            #expect(try await SendHarness.call("POST", "/v1/send", port: port, json: body).status == 202)
            // The copy is retried on the schedule, its reason saying APNs did not answer.
            let report = try await SendHarness.report(of: "d-1", port: port) {
                $0.devices.first?.attempts ?? 0 >= 1 && $0.devices.first?.reason != nil
            }
            #expect(report.devices.first?.state == "pending" && report.devices.first?.reason?.contains("APNs did not answer") == true)
            // SIGTERM: a refused connection fails at once, so no send holds the shutdown.
            #expect(await server.stop() == 0)
        }
    }

    /// One device's stream stalls (a head, then nothing) for the whole of its minute-long
    /// deadline: notifications to other devices, recorded after it, are sent meanwhile — the
    /// stalled send holds its own slot, not a round of sends.
    @Test(.timeLimit(.minutes(1)))
    func aStalledStreamHoldsNoOtherSend() async throws {
        let stalled = String(repeating: "5a", count: 32)
        try await SendHarness.run(stalled: [stalled]) { harness in
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(
                in: harness.directory, port: port,
                extra: harness.sendingFlags + ["--apns-timeout", "70s", "--shutdown-grace", "80s", "--delivery-lease", "90s"])
            defer { server.signal(SIGKILL) }
            #expect(try await SendHarness.register(stalled, user: "alice", port: port) == 201)
            #expect(try await SendHarness.register(Self.phone, user: "bob", port: port) == 201)
            let first = try await SendHarness.call(
                "POST", "/v1/send", port: port,
                json:
                    #"{"user":"alice","category":"message","notificationId":"n-stalled","alert":"hi","payload":{"conversationId":"c","messageId":"m"}}"#
            )
            #expect(first.status == 202)
            for index in 0..<3 {
                let next = try await SendHarness.call(
                    "POST", "/v1/send", port: port,
                    json:
                        #"{"user":"bob","category":"message","notificationId":"n-beside-\#(index)","alert":"hi","payload":{"conversationId":"c","messageId":"m\#(index)"}}"#
                )
                #expect(next.status == 202)
            }
            // Long before the stalled stream's 70 s deadline.
            await harness.standIn.received.wait(untilDelivered: 3)
            let report = try await SendHarness.report(of: "n-stalled", port: port) { _ in true }
            #expect(report.device(stalled)?.state == "pending")
        }
    }
}
