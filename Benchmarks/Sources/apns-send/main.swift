// Sends COUNT notifications to a (stand-in) APNs over HTTP/2 with CONCURRENCY in flight, and
// prints one JSON line: notifications per second and latency percentiles.
//
//   apns-send actionable URL CA_PEM KEY_P8 KEY_ID TEAM CONNECTIONS COUNT CONCURRENCY
//     ActionableAPNs' APNsClient: CONNECTIONS connections, the provider token, headers, answers.
//   apns-send ceiling URL CA_PEM KEY_P8 KEY_ID TEAM CONNECTIONS COUNT CONCURRENCY
//     the stand-in's ceiling: async-http-client posting the same bytes with one bearer made
//     beforehand, over CONNECTIONS clients, and nothing else.
import ActionableAPNs
import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOSSL
import SendLoad

let arguments = CommandLine.arguments
guard arguments.count == 10, let connections = Int(arguments[7]), let count = Int(arguments[8]), let concurrency = Int(arguments[9])
else {
    FileHandle.standardError.write(Data("usage: apns-send actionable|ceiling URL CA_PEM KEY_P8 KEY_ID TEAM CONNECTIONS COUNT CONCURRENCY\n".utf8))
    exit(2)
}
let (mode, url, caFile, keyFile, keyID, team) = (arguments[1], arguments[2], arguments[3], arguments[4], arguments[5], arguments[6])
let logger = Logger(label: "apns-send", factory: { _ in SwiftLogNoOpLogHandler() })
let trusted = try NIOSSLCertificate.fromPEMFile(caFile)
let key = try ES256PrivateKey(pem: String(contentsOfFile: keyFile, encoding: .utf8))
let token = await ProviderToken(key: key, keyID: keyID, teamID: team)
let payload = Array(#"{"aps":{"alert":{"title":"Dinner?","body":"Sam invited you"},"category":"invite"},"inviteId":"42"}"#.utf8)
let devices = (0..<count).map { String(format: "%064x", 0xA000_0000 + $0) }

/// One send, by index: whether it was taken.
let send: @Sendable (Int) async -> Bool
var shutdown: @Sendable () async throws -> Void
switch mode {
case "actionable":
    let client = APNsClient(
        configuration: .init(topic: "com.example.app", baseURL: url, trustedCertificates: trusted, connections: connections),
        token: token, logger: logger)
    send = { index in
        let notification = APNsNotification(
            deviceToken: devices[index], payload: payload, id: APNsNotification.id(notificationID: "bench", deviceToken: devices[index]))
        return await client.send(notification, environment: .production) == .sent
    }
    shutdown = { try await client.shutdown() }
case "ceiling":
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates(trusted)
    var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
    configuration.httpVersion = .automatic
    let clients = (0..<connections).map { _ in HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration) }
    let bearer = "bearer " + (try await token.token())
    let body = ByteBuffer(bytes: payload)
    send = { index in
        var request = HTTPClientRequest(url: url + "/3/device/" + devices[index])
        request.method = .POST
        request.headers.add(name: "authorization", value: bearer)
        request.headers.add(name: "apns-topic", value: "com.example.app")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.body = .bytes(body)
        guard let response = try? await clients[index % clients.count].execute(request, timeout: .seconds(30)) else { return false }
        _ = try? await response.body.collect(upTo: 4096)
        return response.status == .ok
    }
    shutdown = { for client in clients { try await client.shutdown() } }
default:
    FileHandle.standardError.write(Data("mode is actionable or ceiling\n".utf8))
    exit(2)
}

let load = await SendLoad.run(count: count, concurrency: concurrency, send)
try await shutdown()
print(
    String(
        format: #"{"client":"%@","connections":%d,"sent":%d,"failed":%d,"seconds":%.3f,"rate":%.0f,"p50_ms":%.2f,"p99_ms":%.2f}"#,
        mode, connections, count - load.failures, load.failures, load.seconds, Double(count) / load.seconds, load.percentile(0.5),
        load.percentile(0.99)))
