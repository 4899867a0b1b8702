import ActionableCore
import ArgumentParser
import Foundation

/// `actionable respond`: does what the app does when the user taps an action — reads the
/// notification it received (the JSON `actionable payload` prints) and POSTs the answer.
struct RespondCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "respond",
        abstract: "Simulate an app's tap: POST an action response for a notification to the server.",
        discussion: """
            actionable payload invite --set inviteId=42 --user alice --body Hi > notification.json
            actionable respond accept --notification notification.json
            Exit 0 when the server answers 2xx, 1 otherwise (its answer is printed either way).
            """
    )

    @Argument(help: "The action the user tapped (an action id, or Apple's default/dismiss identifier).")
    var action: String
    @Option(help: "The notification's JSON, as actionable payload printed it (- for standard input).")
    var notification: String
    @Option(help: "Text typed into a text-input action.") var text: String?
    @Option(help: "The server.") var url = "http://127.0.0.1:8080"
    @Option(help: "The user the app is signed in as (with --app-jwt-key).") var user: String?
    @OptionGroup var app: AppIdentity

    func validate() throws {
        if (user == nil) != (app.appJWTKey == nil) { throw ValidationError("--user and --app-jwt-key go together") }
    }

    func run() async throws {
        let data: Data
        if notification == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: notification) else {
                throw refuse("\(notification) cannot be read")
            }
            data = contents
        }
        guard let userInfo = try? JSONDecoder().decode(JSONValue.self, from: data), case .object(let pairs) = userInfo,
            case .string(let category)? = userInfo["aps"]?["category"]
        else { throw refuse("\(notification) is not a notification with aps.category (make one with actionable payload)") }
        var body: [(String, JSONValue)] = [("category", .string(category)), ("action", .string(action))]
        if let token = userInfo["actionToken"] { body.append(("actionToken", token)) }
        if let text { body.append(("userText", .string(text))) }
        body.append(("payload", .object(pairs.filter { $0.0 != "aps" && $0.0 != "actionToken" })))

        let bearer = try await user.asyncFlatMap { try await app.jwt(for: $0) }
        let (status, answer) = try await ServerCall.send(
            .post, "/v1/actions", to: url, body: JSONValue.object(body).serialized(), token: bearer)
        print("HTTP \(status) \(answer)")
        if !(200..<300).contains(Int(status)) { throw ExitCode(1) }
    }
}
