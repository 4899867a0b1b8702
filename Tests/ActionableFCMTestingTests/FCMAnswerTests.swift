import Testing

@testable import ActionableFCM

/// What FCM's answers mean for a device: only FCM's own codes unregister it.
struct FCMAnswerTests {
    static func body(status: String, code: String?, message: String? = nil) -> [UInt8] {
        var error = #"{"error":{"status":"\#(status)""#
        if let message { error += #","message":"\#(message)""# }
        if let code { error += #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#(code)"}]"# }
        return Array((error + "}}").utf8)
    }

    @Test func onlyFCMsOwnCodesUnregisterADevice() {
        if case .unregistered = FCMAnswer(status: 404, body: Self.body(status: "NOT_FOUND", code: "UNREGISTERED")) {
        } else {
            Issue.record("UNREGISTERED kept the device")
        }
        // A 404 without FCM's code: a wrong URL, a proxy, a captive portal — or a body too big to read.
        if case .failed(404, _) = FCMAnswer(status: 404, body: Array("<html>Not Found</html>".utf8)) {
        } else {
            Issue.record("a bare 404 unregistered the device")
        }
        if case .failed(404, _) = FCMAnswer(status: 404, body: []) {} else { Issue.record("an empty 404 unregistered the device") }
        let aboutTheToken = Self.body(
            status: "INVALID_ARGUMENT", code: "INVALID_ARGUMENT", message: "The registration token is not a valid FCM registration token")
        if case .unregistered = FCMAnswer(status: 400, body: aboutTheToken) {} else { Issue.record("a bad token kept the device") }
        // INVALID_ARGUMENT that does not say it is the token: the message's fault, not the device's.
        if case .failed(400, _) = FCMAnswer(status: 400, body: Self.body(status: "INVALID_ARGUMENT", code: "INVALID_ARGUMENT")) {
        } else {
            Issue.record("an INVALID_ARGUMENT without a word on the token unregistered the device")
        }
        if case .unregistered = FCMAnswer(status: 403, body: Self.body(status: "PERMISSION_DENIED", code: "SENDER_ID_MISMATCH")) {
        } else {
            Issue.record("SENDER_ID_MISMATCH kept the device")
        }
        if case .failed(403, _) = FCMAnswer(status: 403, body: Self.body(status: "PERMISSION_DENIED", code: nil)) {
        } else {
            Issue.record("a bare 403 unregistered the device")
        }
    }

    /// FCM's text reaches the log as one line: a message that holds a newline cannot write a
    /// forged log line of its own (it was logged as it came).
    @Test func aPeersControlCharactersAreEscapedInTheReason() {
        let forged = #"{"error":{"status":"INTERNAL","message":"bad\n2026-11-28T00:00:00Z critical actionable: admin token leaked\u001b[2J"}}"#
        guard case .retry(let reason, _) = FCMAnswer(status: 500, body: Array(forged.utf8)) else {
            Issue.record("a 500 was not retried")
            return
        }
        #expect(!reason.contains("\n") && !reason.contains("\u{1B}"), "\(reason)")
        #expect(reason == #"INTERNAL: bad\n2026-11-28T00:00:00Z critical actionable: admin token leaked\u{1B}[2J"#)
        guard case .failed(_, let code) = FCMAnswer(status: 400, body: Array(#"{"error":{"status":"A\rB"}}"#.utf8)) else {
            Issue.record("a 400 was not failed")
            return
        }
        #expect(code == #"A\rB"#)
    }

    @Test func aPeersTextIsCutBeforeItReachesTheReason() {
        let long = String(repeating: "S", count: 10_000)
        guard case .failed(_, let reason) = FCMAnswer(status: 418, body: Array(#"{"error":{"status":"\#(long)"}}"#.utf8)) else {
            Issue.record("a 418 was not failed")
            return
        }
        #expect(reason.count <= 64 + 2 + 200)
    }

    @Test func onlyATokenThatMayGoInAHeaderIsTaken() {
        #expect(AccessToken.isBearerToken("ya29.a0AfB_byC-x~y+z/9=="))
        for bad in ["", "ya29.abc\r\nX-Injected: 1", "with space", "a=b", "ünïcode", "=", String(repeating: "a", count: 4097)] {
            #expect(!AccessToken.isBearerToken(bad), "\(bad.prefix(20))")
        }
    }
}
