import ActionableClient
import Foundation
import Testing

/// ActionReport reads what a notification response holds, in both payload shapes apps see.
struct ActionReportTests {
    static let token = "eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiJuLTEifQ.c2ln"

    @Test(arguments: [
        #"{"category": "invite", "alert": "You are invited"}"#,  // iOS 9-era: alert is a string
        #"{"category": "invite", "alert": {"title": "Invite", "body": "Tonight?"}}"#,
        #"{"alert": {"title": "Invite"}}"#,  // the category comes from the response
    ])
    func bothAlertShapesGiveTheSameReport(apsJSON: String) throws {
        let aps = try #require(try JSONSerialization.jsonObject(with: Data(apsJSON.utf8)) as? [String: Any])
        let userInfo: [AnyHashable: Any] = ["aps": aps, "actionToken": Self.token, "inviteId": "42", "seats": 3, "vip": true]
        let report = try ActionReport(
            userInfo: userInfo, categoryIdentifier: aps["category"] == nil ? "invite" : "", actionIdentifier: "accept",
            notificationIdentifier: "ios-id", userText: nil)
        #expect(report.category == "invite")
        #expect(report.action == "accept")
        #expect(report.actionToken == Self.token)
        #expect(report.payload == ["inviteId": .string("42"), "seats": .integer(3), "vip": .bool(true)])
        #expect(report.notificationIdentifier == "ios-id")
    }

    @Test func theResponsesOwnCategoryWinsOverTheApsOne() throws {
        let report = try ActionReport(
            userInfo: ["aps": ["category": "other"], "actionToken": Self.token], categoryIdentifier: "invite", actionIdentifier: "accept",
            notificationIdentifier: nil, userText: nil)
        #expect(report.category == "invite")
    }

    @Test func theRequestBodyCarriesTheTokenTextAndPayloadButNotTheDevicesRequestIdentifier() throws {
        let report = try ActionReport(
            userInfo: ["aps": ["category": "invite"], "actionToken": Self.token, "inviteId": "42", "note": NSNull(), "tags": ["a", 1]],
            categoryIdentifier: "", actionIdentifier: "comment", notificationIdentifier: "ios-request-7", userText: "see you")
        let body = try #require(try JSONSerialization.jsonObject(with: try report.requestBody()) as? [String: Any])
        #expect(Set(body.keys) == ["category", "action", "actionToken", "userText", "payload"])
        #expect(body["userText"] as? String == "see you")
        let payload = try #require(body["payload"] as? [String: Any])
        #expect(payload["inviteId"] as? String == "42")
        #expect(payload["note"] is NSNull)
        #expect((payload["tags"] as? [Any])?.count == 2)
        let text = String(decoding: try report.requestBody(), as: UTF8.self)
        #expect(!text.contains("ios-request-7"))
    }

    @Test(arguments: [ActionReport.defaultActionIdentifier, ActionReport.dismissActionIdentifier])
    func applesIdentifiersPassThroughVerbatim(identifier: String) throws {
        let report = try ActionReport(
            userInfo: ["aps": ["category": "invite"], "actionToken": Self.token], categoryIdentifier: "invite",
            actionIdentifier: identifier, notificationIdentifier: nil, userText: nil)
        let body = try #require(try JSONSerialization.jsonObject(with: try report.requestBody()) as? [String: Any])
        #expect(body["action"] as? String == identifier)
        #expect(report.isOpened == (identifier == "com.apple.UNNotificationDefaultActionIdentifier"))
        #expect(report.isDismissed == (identifier == "com.apple.UNNotificationDismissActionIdentifier"))
    }

    @Test func payloadKeysLeaveOutWhatOtherSDKsAdd() throws {
        let userInfo: [AnyHashable: Any] = [
            "aps": ["category": "invite"], "actionToken": Self.token, "inviteId": "42", "gcm.message_id": "1:2", "google.c.a.e": "1",
        ]
        let all = try ActionReport(
            userInfo: userInfo, categoryIdentifier: "", actionIdentifier: "accept", notificationIdentifier: nil, userText: nil)
        #expect(all.payload.count == 3)
        let declared = try ActionReport(
            userInfo: userInfo, categoryIdentifier: "", actionIdentifier: "accept", notificationIdentifier: nil, userText: nil,
            payloadKeys: ["inviteId", "eventName"])
        #expect(declared.payload == ["inviteId": .string("42")])
    }

    @Test func aPayloadWithoutAnActionTokenIsAClearErrorNotARequest() throws {
        let error = #expect(throws: ActionReportError.self) {
            try ActionReport(
                userInfo: ["aps": ["category": "invite", "alert": "hi"], "inviteId": "42"], categoryIdentifier: "",
                actionIdentifier: "accept", notificationIdentifier: nil, userText: nil)
        }
        #expect(error == .missingActionToken(category: "invite"))
        #expect(error?.description.contains("has no \"actionToken\"") == true)
        #expect(error?.description.contains("PayloadBuilder") == true)
    }

    @Test func hostileUserInfoGivesErrorsNamingTheFault() throws {
        func attempt(_ userInfo: [AnyHashable: Any], category: String = "invite", action: String = "accept") -> ActionReportError? {
            do {
                _ = try ActionReport(
                    userInfo: userInfo, categoryIdentifier: category, actionIdentifier: action, notificationIdentifier: nil,
                    userText: nil)
                return nil
            } catch let error as ActionReportError {
                return error
            } catch {
                Issue.record("unexpected \(error)")
                return nil
            }
        }
        #expect(attempt(["actionToken": 42]) == .actionTokenNotAString(found: "a number"))
        #expect(attempt(["actionToken": ""]) == .actionTokenNotAString(found: "a string"))
        #expect(attempt(["aps": "not a dictionary", "actionToken": Self.token], category: "") == .missingCategory)
        #expect(attempt(["actionToken": Self.token], action: "") == .missingAction)
        #expect(attempt(["actionToken": Self.token, "when": Date()]) == .notJSON(key: "when", found: "a value of type Date"))
        #expect(attempt(["actionToken": Self.token, "x": Double.nan])?.description.contains("payload key \"x\"") == true)
        // Keys that are not strings are not the category's: left out, not a crash.
        #expect(attempt(["actionToken": Self.token, 7: "seven"]) == nil)
    }

    @Test func aReportSurvivesTheReportQueuesJSONRoundTrip() throws {
        let report = ActionReport(
            category: "invite", action: "comment", actionToken: Self.token, notificationIdentifier: "n", userText: "ü 🎉",
            payload: ["a": .array([.integer(-1), .number(1.5), .null]), "b": .object(["c": .bool(false)])])
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(ActionReport.self, from: data) == report)
    }
}
