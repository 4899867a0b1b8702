// Writes COUNT distinct `POST /v1/actions` bodies, one per line, each answering its own
// notification with a valid action token: every request of a load run is a new answer (202),
// never a duplicate. Tokens are minted with the key the server is started with, each bound to
// its payload (pld) as the example catalog's invite category types it.
//
// Usage: action-bodies KEY_ID=SECRET COUNT OUTPUT [PREFIX]
import ActionableCore
import ActionableTokens
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let count = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: action-bodies KEY_ID=SECRET COUNT OUTPUT [PREFIX]\n".utf8))
    exit(2)
}
let prefix = arguments.count > 3 ? arguments[3] : "load"
let tokens = try await ActionTokens(keys: [ActionTokenKey(parsing: arguments[0])])
var text = ""
text.reserveCapacity(count * 400)
let invite = PayloadSchema(fields: [PayloadField(key: "inviteId", type: .string, required: true, maxLength: 64)])
for index in 0..<count {
    let token = try await tokens.mint(
        user: "user-\(index % 1000)", notificationID: "\(prefix)-\(index)", category: "invite",
        payload: PayloadDigest(payload: [("inviteId", .string("inv-\(index)"))], schema: invite), lifetime: 24 * 3600)
    text += #"{"category":"invite","action":"accept","actionToken":"\#(token)","payload":{"inviteId":"inv-\#(index)"}}"#
    text += "\n"
}
try text.write(toFile: arguments[2], atomically: true, encoding: .utf8)
