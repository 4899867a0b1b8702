import ActionableCore
import ActionablePayload
import ActionableTokens
public import ArgumentParser
import Foundation

/// `actionable payload CATEGORY ...`: prints the APNs JSON with `aps.category` set.
struct PayloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "payload",
        abstract: "Print an APNs payload for a category, checked against the catalog.",
        discussion: """
            With --platform android it prints an FCM HTTP v1 data message instead (message.data: \
            category, actionToken, title, body and the payload keys as strings; android.priority, ttl, \
            collapse_key), checked the same way and within FCM's 4096 bytes of data. \
            Refuses (exit 1) an unknown category, a missing, unknown or mistyped payload key, and a \
            payload over 4096 bytes (5120 with --voip). --set values are typed by the category's \
            payload schema: --set seats=3 is the integer 3 when seats is an integer. With --user, an \
            action token is added, bound to the user, the notification and the payload (its pld \
            claim: the SHA-256 of the payload in canonical JSON); without --token-key it is signed with the development key under \
            .actionable/ (the one `actionable serve` uses by default).
            """
    )

    @Argument(help: "The category id (aps.category).") var category: String
    @Option(help: "The directory of category files.") var categories = "Categories"
    @Option(help: "Alert title.") var title: String?
    @Option(help: "Alert subtitle.") var subtitle: String?
    @Option(help: "Alert body.") var body: String?
    @Option(help: "Badge number.") var badge: Int?
    @Option(help: "Sound name (e.g. default).") var sound: String?
    @Option(name: .customLong("thread-id"), help: "Thread id for grouping.") var threadID: String?
    @Option(name: .customLong("set"), help: "A custom payload value, KEY=VALUE (repeatable).") var values: [String] = []
    @Option(help: "Bind the notification to this user with an action token.") var user: String?
    @Option(name: .customLong("token-key"), help: "ID=SECRET signing the action token (repeatable: the first signs).")
    var tokenKeys: [String] = []
    @Option(help: "Action token lifetime: 90s, 30m, 12h or 7d.") var expires = "7d"
    @Option(name: .customLong("notification-id"), help: "The notification id in the token (default: a new UUID).")
    var notificationID: String?
    @Flag(name: .customLong("content-available"), help: "Set content-available: 1.") var contentAvailable = false
    @Flag(name: .customLong("mutable-content"), help: "Set mutable-content: 1.") var mutableContent = false
    @Flag(help: "A VoIP push (5120-byte limit).") var voip = false
    @Flag(help: "Indent the JSON (what is sent is compact).") var pretty = false
    @Option(help: "ios (an APNs payload) or android (an FCM HTTP v1 data message).") var platform: Platform = .ios
    @Option(name: .customLong("device-token"), help: "With --platform android: the FCM registration token (message.token).")
    var deviceToken: String?
    @Option(help: "With --platform android: high or normal (android.priority).") var priority: FCMMessage.Priority = .high
    @Option(help: "With --platform android: how long FCM keeps it for an offline device: 90s, 30m, 12h, 7d (android.ttl).")
    var ttl: String?
    @Option(name: .customLong("collapse-key"), help: "With --platform android: android.collapse_key.") var collapseKey: String?

    enum Platform: String, ExpressibleByArgument, CaseIterable { case ios, android }

    func validate() throws {
        if !tokenKeys.isEmpty && user == nil { throw ValidationError("--token-key needs --user: a token binds a user") }
        switch platform {
        case .android:
            let apnsOnly = [
                ("--subtitle", subtitle != nil), ("--sound", sound != nil), ("--thread-id", threadID != nil),
                ("--content-available", contentAvailable), ("--mutable-content", mutableContent), ("--voip", voip),
            ].filter(\.1).map(\.0)
            if !apnsOnly.isEmpty {
                throw ValidationError("\(apnsOnly.joined(separator: ", ")) are APNs settings; an Android data message has --title and --body")
            }
            if let ttl, DurationText.seconds(ttl) == nil { throw ValidationError("--ttl takes a number and a unit: 90s, 30m, 12h or 7d") }
        case .ios:
            let androidOnly = [
                ("--device-token", deviceToken != nil), ("--ttl", ttl != nil), ("--collapse-key", collapseKey != nil),
            ].filter(\.1).map(\.0)
            if !androidOnly.isEmpty { throw ValidationError("\(androidOnly.joined(separator: ", ")) go with --platform android") }
        }
        if user != nil, DurationText.seconds(expires) == nil {
            throw ValidationError("--expires takes a number and a unit: 90s, 30m, 12h or 7d")
        }
    }

    func run() async throws {
        let catalog = try loadCheckedCatalog(categories)
        let categoryID = CategoryID(category)
        guard let declared = catalog[categoryID] else {
            let hint = catalog.suggestion(for: categoryID).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw refuse("category \"\(category)\" is not in the catalog at \(categories)\(hint)")
        }
        let fields = try values.map { try Self.typedValue($0, schema: declared.payload) }
        // One id for the token's jti and the Android message's notificationId (the app posts and reports under it).
        let notificationID = self.notificationID ?? UUID().uuidString.lowercased()
        var token: String?
        if let user {
            let keys = try await signingKeys()
            let tokens = try await ActionTokens(keys: keys)
            // The token binds the payload (pld), so the server can refuse a tap whose payload was edited.
            token = try await tokens.mint(
                user: user, notificationID: notificationID, category: categoryID,
                payload: PayloadDigest(payload: fields, schema: declared.payload),
                lifetime: DurationText.seconds(expires) ?? 7 * 86400)
        }
        if platform == .android {
            let options = FCMOptions(
                deviceToken: deviceToken, title: title, body: body, priority: priority,
                timeToLive: ttl.flatMap(DurationText.seconds).map { Int($0) }, collapseKey: collapseKey, notificationID: notificationID,
                badge: badge)
            do {
                let message = try PayloadBuilder(catalog: catalog).androidMessage(
                    category: categoryID, fields: fields, actionToken: token, options: options)
                print(pretty ? (try JSONDecoder().decode(JSONValue.self, from: Data(message.bytes))).prettySerialized() : message.json)
            } catch let error as PayloadError {
                throw refuse(error.description)
            }
            return
        }
        let aps = APS(
            alert: alert, badge: badge, sound: sound.map(APS.Sound.named), threadID: threadID,
            contentAvailable: contentAvailable, mutableContent: mutableContent)
        do {
            let payload = try PayloadBuilder(catalog: catalog).build(
                category: categoryID, aps: aps, fields: fields, actionToken: token, pushType: voip ? .voip : .alert)
            if pretty, let object = try? JSONDecoder().decode(JSONValue.self, from: Data(payload.bytes)) {
                print(object.prettySerialized())
            } else {
                print(payload.json)
            }
        } catch {
            throw refuse(error.description)
        }
    }

    private var alert: APS.Alert? {
        guard title != nil || subtitle != nil else { return body.map(APS.Alert.body) }
        return .fields(APS.AlertFields(title: title, subtitle: subtitle, body: body))
    }

    private func signingKeys() async throws -> [ActionTokenKey] {
        let configured: [ActionTokenKey]
        do {
            configured = try tokenKeys.map { try ActionTokenKey(parsing: $0) }
        } catch {
            throw refuse("\(error)")
        }
        return try DevelopmentKey.keys(configured) { printError("warning: \($0)") }
    }

    /// `KEY=VALUE`, typed by the schema (`PayloadSchema.value(assigning:)`).
    static func typedValue(_ text: String, schema: PayloadSchema) throws -> (String, JSONValue) {
        do {
            return try schema.value(assigning: text)
        } catch {
            throw refuse(error.description)
        }
    }
}
extension FCMMessage.Priority: ExpressibleByArgument {}
