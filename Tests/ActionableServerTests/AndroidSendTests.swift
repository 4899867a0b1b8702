import ActionableFCMTesting
import ActionableTestSupport
import ActionableWire
import Foundation
import Testing

/// Android through real processes: `serve` sending through the stand-in FCM over TLS, and the
/// generated Android code, compiled against the Android stand-in, living on the JVM as an app
/// lives (a process per event, what survives kept in the app's files).
@Suite(.timeLimit(.minutes(4)))
struct AndroidSendTests {
    static let send = #"""
        {"user":"alice","category":"invite","notificationId":"NID","alert":{"title":"Dinner?","body":"Sam invited you"},
         "payload":{"inviteId":"42","seats":3},"badge":"auto"}
        """#

    static func sendBody(_ id: String) -> String { send.replacingOccurrences(of: "NID", with: id) }

    @Test func theAppRegistersItsTokenShowsTheNotificationAndItsTapsAreForwardedWithTheRecordedPayload() async throws {
        try await SendHarness.run { harness in
            try await ScriptedUpstream.run(answer: 204) { upstream, upstreamPort in
                let directory = harness.directory
                let compiled = try await AndroidStandInBuild.compile(in: directory, extra: AndroidStandInBuild.tapChecks)
                #expect(compiled.status == 0, "\(compiled.output)")
                let port = try ServerProcess.freePort()
                let forward = [
                    "--forward", "invite.*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret",
                    "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
                ]
                let server = try await ServerProcess.serve(in: directory, port: port, extra: harness.sendingFlags + forward)
                defer { server.signal() }
                let work = directory.appendingPathComponent("work")
                func app(_ arguments: [String]) async throws -> String {
                    let run = try await AndroidStandInBuild.run("actionable.check.TapCheck", arguments, classes: directory, work: work)
                    #expect(run.status == 0, "\(arguments.first ?? ""): \(run.stderr)")
                    return run.stdout
                }
                // The app starts (configured with the server and its JWT), and FCM hands it a token: registered
                // through the outbox, from a fresh process.
                _ = try await app(["configure", "http://127.0.0.1:\(port)", try await SendHarness.appJWT("alice")])
                let token = "fcm-alice-1:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
                _ = try await app(["token", token])
                #expect(try await app(["run"]).contains("actionable.device\tSuccess"))
                let devices = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
                #expect(devices.items.map(\.token) == [token] && devices.items.first?.platform == "android")
                #expect(devices.items.first?.environment == nil, "an Android device has no APNs environment")
                // Signing in again (a JWT for the same user here) registers FirebaseMessaging's current token, which
                // FCM does not hand over again: onNewToken runs only when it changes.
                let current = "fcm-alice-2:APA91bHun4MxP5egoKMwt2KZFBaFUH-2RYqx"
                _ = try await app(["signin", current])
                #expect(try await app(["run"]).contains("actionable.device\tSuccess"))
                let signedIn = try JSONDecoder().decode(
                    DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
                #expect(Set(signedIn.items.map(\.token)) == [token, current])
                _ = try await SendHarness.call("DELETE", "/v1/devices/" + current, port: port)

                // The backend sends; FCM takes the data message the server built.
                for id in ["n-and-1", "n-and-2"] {
                    let sent = try await SendHarness.call("POST", "/v1/send", port: port, json: Self.sendBody(id))
                    #expect(sent.status == 202, "\(String(decoding: sent.body, as: UTF8.self))")
                    #expect(try JSONDecoder().decode(SendAccepted.self, from: sent.body).devices == 1)
                }
                await harness.fcm.received.wait(untilTaken: 2)
                let messages = await harness.fcm.received.messages
                #expect(messages.allSatisfy { $0.token == token && $0.priority == "high" })
                for (index, id) in ["n-and-1", "n-and-2"].enumerated() {
                    let report = try await SendHarness.report(of: id, port: port) { $0.settled }
                    #expect(
                        report.devices.map(\.platform) == ["android"] && report.devices.first?.state == "sent" && report.devices.first?.status == 200)
                    let data = try #require(messages.first { $0.data["notificationId"] == id }?.data)
                    #expect(data["category"] == "invite" && data["title"] == "Dinner?" && data["body"] == "Sam invited you")
                    #expect(data["inviteId"] == "42" && data["seats"] == "3" && data["badge"] == String(index + 1))
                    #expect(data["actionToken"]?.split(separator: ".").count == 3)
                }

                // The messaging service posts each; the user answers one with text and taps the other; each process is
                // killed the moment the receiver returns.
                var responses: [String: String] = [:]
                for (id, action, text) in [("n-and-1", "comment", "see you there"), ("n-and-2", "accept", "-")] {
                    let message = try #require(messages.first { $0.data["notificationId"] == id })
                    let file = directory.appendingPathComponent(id + ".json")
                    try JSONSerialization.data(withJSONObject: message.data).write(to: file)
                    let shown = try await app(["deliver", file.path, action, text, "halt"])
                    #expect(shown.contains("posted\t\(id)#") && shown.contains("actions\taccept,decline,comment"), "\(shown)")
                    #expect(shown.contains("channel\tactionable") && shown.contains("opens\ttrue"), "\(shown)")
                    #expect(shown.contains("cancelled\ttrue"), "the notification is taken down once the tap is handed over: \(shown)")
                    responses[id] = action
                }
                // A fresh process sends both from the outbox.
                let ran = try await app(["run"])
                #expect(ran.contains("actionable.tap.n-and-1\tSuccess") && ran.contains("actionable.tap.n-and-2\tSuccess"), "\(ran)")

                // Each tap is forwarded once, with the payload the server recorded when it sent the notification.
                for (id, action) in responses {
                    let list = try await SendHarness.call(
                        "GET", "/v1/deliveries?category=invite&limit=100", port: port, bearer: SendHarness.adminToken)
                    let page = try JSONSerialization.jsonObject(with: list.body) as? [String: Any]
                    let items = try #require(page?["items"] as? [[String: Any]], "\(String(decoding: list.body, as: UTF8.self))")
                    let responseID = try #require(items.first { $0["notificationId"] as? String == id }?["id"] as? String)
                    try await upstream.delivered(responseID)
                    #expect(await upstream.tries(of: responseID) == 1)
                    let body = try #require(await upstream.bodies[responseID])
                    let forwarded = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
                    #expect(forwarded["action"] as? String == action && forwarded["user"] as? String == "alice")
                    let payload = try #require(forwarded["payload"] as? [String: Any])
                    #expect(payload["inviteId"] as? String == "42" && payload["seats"] as? Int == 3, "\(payload)")
                    #expect((forwarded["userText"] as? String) == (action == "comment" ? "see you there" : nil))
                }
            }
        }
    }

    /// A category added to the server's files after the app was built: the messaging service
    /// builds its buttons from the catalog the server serves (in the device's language), the tap
    /// is stored and forwarded like any other; with no catalog to be had, the notification is
    /// shown without buttons.
    @Test func aCategoryTheGeneratedCodeNeverSawGetsItsButtonsFromTheServedCatalog() async throws {
        try await SendHarness.run { harness in
            try await ScriptedUpstream.run(answer: 204) { upstream, upstreamPort in
                let directory = harness.directory
                let poll = """
                    category: poll
                    payload:
                      pollId: { type: string, required: true }
                      round: integer
                    actions:
                      - id: yes
                        title: { en: "Yes", de: "Ja" }
                      - id: no
                        title: { en: "No", de: "Nein" }
                        destructive: true
                      - id: why
                        title: { en: "Why?", de: "Warum?" }
                        input: { placeholder: { en: Reason, de: Grund }, maxLength: 20 }
                      - id: later
                        title: Later
                    android: { actions: [why, yes, no] }
                    """
                try poll.write(to: directory.appendingPathComponent("Categories/poll.yaml"), atomically: true, encoding: .utf8)
                let compiled = try await AndroidStandInBuild.compile(in: directory, extra: AndroidStandInBuild.tapChecks)
                #expect(compiled.status == 0, "\(compiled.output)")
                let port = try ServerProcess.freePort()
                let forward = [
                    "--forward", "poll.*=http://127.0.0.1:\(upstreamPort)/rsvp", "--forward-secret",
                    "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(),
                ]
                let server = try await ServerProcess.serve(in: directory, port: port, extra: harness.sendingFlags + forward)
                defer { server.signal() }
                let work = directory.appendingPathComponent("work")
                func app(_ arguments: [String], language: String = "de") async throws -> String {
                    let run = try await AndroidStandInBuild.run(
                        "actionable.check.TapCheck", arguments, classes: directory, work: work, language: language)
                    #expect(run.status == 0, "\(arguments.first ?? ""): \(run.stderr)")
                    return run.stdout
                }
                _ = try await app(["configure", "http://127.0.0.1:\(port)", try await SendHarness.appJWT("alice")])
                _ = try await app(["token", "fcm-alice-poll:APA91b-1"])
                #expect(try await app(["run"]).contains("actionable.device\tSuccess"))
                let body =
                    #"{"user":"alice","category":"poll","notificationId":"n-poll-1","alert":{"title":"Lunch?","body":"12:30"},"payload":{"pollId":"p-1","round":2}}"#
                let sent = try await SendHarness.call("POST", "/v1/send", port: port, json: body)
                #expect(sent.status == 202, "\(String(decoding: sent.body, as: UTF8.self))")
                try #require(try JSONDecoder().decode(SendAccepted.self, from: sent.body).devices == 1)  // else FCM gets nothing to wait for
                await harness.fcm.received.wait(untilTaken: 1)
                let message = try #require(await harness.fcm.received.messages.first)
                let file = directory.appendingPathComponent("n-poll-1.json")
                try JSONSerialization.data(withJSONObject: message.data).write(to: file)

                // The generated code knows invite, login-approval, message, order-shipped: poll comes from the server.
                let shown = try await app(["deliver", file.path, "why", String(repeating: "x", count: 25), "halt"])
                #expect(shown.contains("posted\tn-poll-1#") && shown.contains("actions\twhy,yes,no"), "\(shown)")
                #expect(shown.contains("titles\tWarum?,Ja,Nein"), "\(shown)")
                #expect(shown.contains("cancelled\ttrue"), "\(shown)")
                #expect(try await app(["run"]).contains("actionable.tap.n-poll-1\tSuccess"))
                let list = try await SendHarness.call("GET", "/v1/deliveries?category=poll&limit=10", port: port, bearer: SendHarness.adminToken)
                let page = try JSONSerialization.jsonObject(with: list.body) as? [String: Any]
                let responseID = try #require((page?["items"] as? [[String: Any]])?.first?["id"] as? String)
                try await upstream.delivered(responseID)
                let forwardedBody = try #require(await upstream.bodies[responseID])
                let forwarded = try #require(try JSONSerialization.jsonObject(with: forwardedBody) as? [String: Any])
                #expect(forwarded["category"] as? String == "poll" && forwarded["action"] as? String == "why")
                #expect(forwarded["userText"] as? String == String(repeating: "x", count: 20), "held to the served maxLength")
                let payload = try #require(forwarded["payload"] as? [String: Any])
                #expect(payload["pollId"] as? String == "p-1" && payload["round"] as? Int == 2, "\(payload)")

                // The catalog is kept: with the server down, a second poll still gets its buttons (English device now).
                await server.stop()
                let second = message.data.merging(["notificationId": "n-poll-2"]) { $1 }
                try JSONSerialization.data(withJSONObject: second).write(to: file)
                let kept = try await app(["deliver", file.path, "-"], language: "en")
                #expect(kept.contains("actions\twhy,yes,no") && kept.contains("titles\tWhy?,Yes,No"), "\(kept)")
                // With no catalog at all (a fresh install, the server down): shown, without buttons.
                let fresh = directory.appendingPathComponent("fresh")
                let run = try await AndroidStandInBuild.run(
                    "actionable.check.TapCheck", ["configure", "http://127.0.0.1:\(port)"], classes: directory, work: fresh)
                #expect(run.status == 0)
                let bare = try await AndroidStandInBuild.run(
                    "actionable.check.TapCheck", ["deliver", file.path, "-"], classes: directory, work: fresh)
                #expect(bare.stdout.contains("posted\tn-poll-2#") && bare.stdout.contains("actions\t\n"), "\(bare.stdout) \(bare.stderr)")
            }
        }
    }

    @Test func fcmsWordOnATokenFailsItsCopyAndUnregistersTheDeviceUntilItRegistersAgain() async throws {
        let gone = "fcm-gone:APA91b-1"
        let other = "fcm-other-project:APA91b-2"
        try await SendHarness.run(
            androidUnregistered: [gone], androidFailures: [other: FCMStandIn.Failure(status: 403, code: "SENDER_ID_MISMATCH")]
        ) { harness in
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(in: harness.directory, port: port, extra: harness.sendingFlags)
            defer { server.signal() }
            let phone = String(repeating: "c4", count: 32)
            #expect(try await SendHarness.register(phone, user: "alice", port: port) == 201)
            for token in [gone, other] { #expect(try await SendHarness.registerAndroid(token, user: "alice", port: port) == 201) }
            let sent = try await SendHarness.call("POST", "/v1/send", port: port, json: Self.sendBody("n-gone"))
            #expect(try JSONDecoder().decode(SendAccepted.self, from: sent.body).devices == 3)
            let report = try await SendHarness.report(of: "n-gone", port: port) { $0.settled }
            #expect(report.device(phone)?.state == "sent" && report.device(phone)?.platform == "ios")
            #expect(report.device(gone)?.state == "failed" && report.device(gone)?.status == 404, "\(report.devices)")
            #expect(report.device(other)?.state == "failed" && report.device(other)?.status == 403, "\(report.devices)")
            #expect(report.device(other)?.reason?.contains("SENDER_ID_MISMATCH") == true)
            let devices = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
            #expect(devices.items.filter { $0.state == "unregistered" }.map(\.token).sorted() == [gone, other].sorted())
            // The next send goes to the active device only; the app registering its token again revives it.
            let next = try await SendHarness.call("POST", "/v1/send", port: port, json: Self.sendBody("n-after"))
            #expect(try JSONDecoder().decode(SendAccepted.self, from: next.body).devices == 1)
            #expect(try await SendHarness.registerAndroid(gone, user: "alice", port: port) == 201)
            let metrics = String(
                decoding: try await SendHarness.call("GET", "/metrics", port: port, bearer: SendHarness.adminToken).body, as: UTF8.self)
            #expect(metrics.contains(#"actionable_fcm_sends_total{outcome="failed"} 2"#), "\(metrics)")
        }
    }

    @Test func registrationsAreCheckedForTheirPlatform() async throws {
        try await SendHarness.run { harness in
            let port = try ServerProcess.freePort()
            let server = try await ServerProcess.serve(in: harness.directory, port: port, extra: harness.sendingFlags)
            defer { server.signal() }
            let jwt = try await SendHarness.appJWT("alice")
            let long = String(repeating: "a", count: 4097)
            for (body, pointer) in [
                (#"{"token":"abc def","platform":"android"}"#, "/token"),
                (#"{"token":"\#(long)","platform":"android"}"#, "/token"),
                (#"{"token":"fcm:1","platform":"android","environment":"production"}"#, "/environment"),
                (#"{"token":"\#(String(repeating: "ab", count: 32))"}"#, "/environment"),
                (#"{"token":"fcm:1","platform":"windows"}"#, "/platform"),
                (#"{"token":"fcm:1\u0000x","platform":"android"}"#, "/token"),
            ] {
                let answer = try await SendHarness.call("POST", "/v1/devices", port: port, bearer: jwt, json: body)
                #expect(answer.status == 400, "\(body)")
                let problem = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
                let errors = problem?["errors"] as? [[String: String]]
                #expect(errors?.first?["pointer"] == pointer, "\(body): \(String(decoding: answer.body, as: UTF8.self))")
            }
            // The longest token taken is FCM's 4,096 bytes; case is kept (FCM's tokens are case-sensitive).
            let longest = "Fcm:" + String(repeating: "Ab", count: 2_046)
            #expect(try await SendHarness.registerAndroid(longest, user: "alice", port: port) == 201)
            let devices = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
            #expect(devices.items.map(\.token) == [longest])
            // Removed by its token, by the app of its user.
            let removed = try await SendHarness.call("DELETE", "/v1/devices/\(longest)", port: port, bearer: jwt)
            #expect(removed.status == 204)

            // An FCM token that happens to be all hexadecimal digits is removed as written, not
            // read as an APNs token: alice's iOS device whose token is its lowercase stays.
            let hexFCM = String(repeating: "AB12", count: 16)
            #expect(try await SendHarness.registerAndroid(hexFCM, user: "alice", port: port) == 201)
            #expect(try await SendHarness.register(hexFCM.lowercased(), user: "alice", port: port) == 201)
            #expect(try await SendHarness.call("DELETE", "/v1/devices/\(hexFCM)", port: port, bearer: jwt).status == 204)
            let left = try JSONDecoder().decode(DeviceList.self, from: try await SendHarness.call("GET", "/v1/devices/alice", port: port).body)
            #expect(left.items.map(\.platform) == ["ios"] && left.items.map(\.token) == [hexFCM.lowercased()])
            // The same text again now names the APNs token (stored lowercase, matched in any case).
            #expect(try await SendHarness.call("DELETE", "/v1/devices/\(hexFCM)", port: port, bearer: jwt).status == 204)
            #expect(try await SendHarness.call("DELETE", "/v1/devices/\(hexFCM)", port: port, bearer: jwt).status == 404)
        }
    }
}
