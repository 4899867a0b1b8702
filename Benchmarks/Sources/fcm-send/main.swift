// Sends COUNT messages to a (stand-in) FCM HTTP v1 with CONCURRENCY in flight, and prints one JSON
// line: messages per second, latency percentiles, and how many access tokens were granted.
//
//   fcm-send actionable BASE_URL CA_PEM SERVICE_ACCOUNT_JSON COUNT CONCURRENCY
//     ActionableFCM's FCMClient: the service account's shared access token (RS256 JWT-bearer
//     grant), the message, FCM's answer read into FCMAnswer.
//   fcm-send ceiling BASE_URL CA_PEM SERVICE_ACCOUNT_JSON COUNT CONCURRENCY
//     the stand-in's ceiling: a bare async-http-client posting the same bodies with one access
//     token got beforehand, and nothing else.
import ActionableFCM
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
import SendLoad

let arguments = CommandLine.arguments
guard arguments.count == 7, let count = Int(arguments[5]), let concurrency = Int(arguments[6]) else {
    FileHandle.standardError.write(Data("usage: fcm-send actionable|ceiling BASE_URL CA_PEM SERVICE_ACCOUNT_JSON COUNT CONCURRENCY\n".utf8))
    exit(2)
}
let (mode, url, caFile, accountFile) = (arguments[1], arguments[2], arguments[3], arguments[4])
let logger = Logger(label: "fcm-send", factory: { _ in SwiftLogNoOpLogHandler() })
let trusted = try NIOSSLCertificate.fromPEMFile(caFile)
let account = try ServiceAccount.read(try Data(contentsOf: URL(fileURLWithPath: accountFile)), from: accountFile)
let tokens = (0..<count).map { "bench-device-\($0):APA91b" }
let message: @Sendable (Int) -> FCMMessage = { index in
    FCMMessage(
        token: tokens[index],
        data: ["category": "invite", "notificationId": "n-\(index)", "inviteId": "42", "title": "Dinner?", "body": "Sam invited you"],
        timeToLive: 3600)
}

/// One send, by index: whether it was taken.
let send: @Sendable (Int) async -> Bool
var shutdown: @Sendable () async throws -> Void
var grants: @Sendable () async -> Int = { 1 }
switch mode {
case "actionable":
    let client = try await FCMClient(
        configuration: .init(baseURL: url, trustedCertificates: trusted, timeout: .seconds(30)), account: account, logger: logger)
    send = { index in
        if case .sent = await client.send(message(index)) { return true }
        return false
    }
    grants = { await client.accessToken.grants }
    shutdown = { try await client.shutdown() }
case "ceiling":
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.additionalTrustRoots = [.certificates(trusted)]
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
    configuration.httpVersion = .automatic
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    // One access token, got the way FCMClient gets it, before the clock starts.
    let bearer = "Bearer " + (try await AccessToken(account: account, client: http).token())
    let endpoint = url + "/v1/projects/\(account.projectID)/messages:send"
    send = { index in
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "authorization", value: bearer)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: message(index).body))
        guard let response = try? await http.execute(request, timeout: .seconds(30)) else { return false }
        _ = try? await response.body.collect(upTo: 65536)
        return response.status == .ok
    }
    shutdown = { try await http.shutdown() }
default:
    FileHandle.standardError.write(Data("mode is actionable or ceiling\n".utf8))
    exit(2)
}

let load = await SendLoad.run(count: count, concurrency: concurrency, send)
try await shutdown()
print(
    String(
        format: #"{"client":"%@","sent":%d,"failed":%d,"seconds":%.3f,"rate":%.0f,"p50_ms":%.2f,"p99_ms":%.2f,"grants":%d}"#,
        mode, count - load.failures, load.failures, load.seconds, Double(count) / load.seconds, load.percentile(0.5), load.percentile(0.99), granted))
