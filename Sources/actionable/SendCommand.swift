import ActionableCore
import ActionableHTTP
import ActionableWire
import ArgumentParser
import Foundation

/// `actionable send CATEGORY --user U …`: asks a running server to send a notification to each
/// of the user's devices (`POST /v1/send`), as the backend would.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a notification to each of a user's devices through a running server (POST /v1/send).",
        discussion: """
            actionable send invite --user alice --title "Dinner?" --body "Sam invited you" --set inviteId=42 --badge auto
            --set values are typed by the category's payload schema in --categories (as actionable payload does); the \
            server checks them again. Without --title, --subtitle, --body, --sound or --badge it is a background push. \
            The same --notification-id again sends nothing twice. --wait prints where each device's copy ends up.
            """
    )

    @Argument(help: "The category id.") var category: String
    @Option(help: "The user whose devices it goes to.") var user: String
    @Option(help: "Alert title.") var title: String?
    @Option(help: "Alert subtitle.") var subtitle: String?
    @Option(help: "Alert body.") var body: String?
    @Option(name: .customLong("set"), help: "A custom payload value, KEY=VALUE (repeatable).") var values: [String] = []
    @Option(help: "auto (the user's unread count, from the server's ledger) or a number.") var badge: String?
    @Option(help: "Sound name (e.g. default).") var sound: String?
    @Option(name: .customLong("thread-id"), help: "Thread id for grouping.") var threadID: String?
    @Flag(name: .customLong("mutable-content"), help: "Let the app's notification service extension run first (needs an alert).")
    var mutableContent = false
    @Option(name: .customLong("collapse-id"), help: "apns-collapse-id: a newer notification replaces an older one.") var collapseID: String?
    @Option(name: .customLong("notification-id"), help: "The notification's id (default: one the server makes).") var notificationID: String?
    @Option(help: "apns-priority: 10, 5 or 1.") var priority: Int?
    @Option(help: "The directory of category files (types the --set values).") var categories = "Categories"
    @Flag(help: "Wait until every device's copy is sent, failed or unregistered, and print each.") var wait = false
    @OptionGroup var connection: BackendConnection

    func validate() throws {
        if let badge, badge != "auto", Int(badge) == nil { throw ValidationError("--badge is auto or a number") }
    }

    func run() async throws {
        let token = try connection.token()
        let catalog = try loadCheckedCatalog(categories)
        guard let declared = catalog[CategoryID(category)] else {
            let hint = catalog.suggestion(for: CategoryID(category)).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw refuse("category \"\(category)\" is not in the catalog at \(categories)\(hint)")
        }
        var payload: [String: JSONValue] = [:]
        for text in values {
            let (key, value) = try PayloadCommand.typedValue(text, schema: declared.payload)
            payload[key] = value
        }
        let alert: SendRequest.Alert? =
            title == nil && subtitle == nil ? body.map(SendRequest.Alert.text) : .fields(title: title, subtitle: subtitle, body: body)
        let request = SendRequest(
            user: user, category: category, notificationId: notificationID, alert: alert, payload: payload,
            badge: badge.map { $0 == "auto" ? .auto : .count(Int($0) ?? 0) }, sound: sound, threadId: threadID, collapseId: collapseID,
            priority: priority, mutableContent: mutableContent ? true : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let (status, answer): (UInt, SendAccepted) = try await ServerCall.json(
            .post, "/v1/send", to: connection.url, body: String(decoding: try encoder.encode(request), as: UTF8.self), token: token)
        let devices = answer.devices == 1 ? "1 device" : "\(answer.devices) devices"
        print(status == 202 ? "sending \(answer.notificationId) to \(devices)" : "\(answer.notificationId) was sent before, to \(devices)")
        guard wait else { return }
        let path = "/v1/notifications/\(ServerCall.segment(answer.notificationId))"
        var report: NotificationReport
        repeat {
            report = try await ServerCall.json(.get, path, to: connection.url, token: token).answer
            if report.devices.contains(where: { $0.state == "pending" }) { try await Task.sleep(for: .milliseconds(200)) }
        } while report.devices.contains { $0.state == "pending" }
        for device in report.devices {
            let detail = [device.status.map { "HTTP \($0)" }, device.reason].compactMap { $0 }.joined(separator: " ")
            print("\(device.token.prefix(16))…  \(device.state)  \(detail)".trimmingCharacters(in: .whitespaces))
        }
    }
}
