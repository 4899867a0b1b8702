import ActionableClient
import Foundation

// actionable-client-probe ENDPOINT REPORT-QUEUE CATEGORY ACTION TOKEN [PAYLOAD-JSON]
//
// Saves one report in REPORT-QUEUE (the directory of the app's report queue), prints
// "saved <name>", and waits for a signal without sending it: the test kills it with SIGKILL at
// that point, and a reporter in another process must then send the report.
let arguments = CommandLine.arguments
guard arguments.count >= 6, let endpoint = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: actionable-client-probe ENDPOINT REPORT-QUEUE CATEGORY ACTION TOKEN [PAYLOAD-JSON]\n".utf8))
    exit(2)
}
var userInfo: [AnyHashable: Any] = ["aps": ["category": arguments[3], "alert": "probe"], "actionToken": arguments[5]]
if arguments.count > 6, let object = try JSONSerialization.jsonObject(with: Data(arguments[6].utf8)) as? [String: Any] {
    for (key, value) in object { userInfo[key] = value }
}
let report = try ActionReport(
    userInfo: userInfo, categoryIdentifier: "", actionIdentifier: arguments[4], notificationIdentifier: nil, userText: nil)
let reporter = ActionReporter(endpoint: endpoint, reportQueue: URL(fileURLWithPath: arguments[2]))
let name = try await reporter.save(report)
FileHandle.standardOutput.write(Data("saved \(name)\n".utf8))
while true { pause() }
