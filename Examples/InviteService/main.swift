import ActionableCore
import ActionableDelivery
import Foundation
import HTTPTypes
import Hummingbird

// swift run invite-service [--port 8090] [--secret whsec_…]
// An example invitations service: receives the answers `actionable serve --forward` delivers,
// verifies their Standard Webhooks signature, and records each RSVP once (by webhook-id, which
// stays the same on every retry). GET /rsvps lists what it recorded.

/// The RSVPs received, once each.
actor RSVPBook {
    private var seen = Set<String>()
    private(set) var rsvps: [String] = []

    /// Records an RSVP unless its delivery id was seen; returns whether it was new.
    func record(id: String, line: String) -> Bool {
        guard seen.insert(id).inserted else { return false }
        rsvps.append(line)
        return true
    }
}

/// Writes a line at once (unbuffered), so each RSVP shows even when output goes to a file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let port = option("--port").flatMap(Int.init) ?? 8090
let secret =
    option("--secret") ?? ProcessInfo.processInfo.environment["INVITE_SERVICE_SECRET"]
    ?? "whsec_ZXhhbXBsZS1pbnZpdGUtc2VydmljZS1zZWNyZXQ="
let signer = try WebhookSigner(secret: secret)
let book = RSVPBook()

let router = Router()
router.post("/rsvp") { request, _ -> Response in
    let body = try await request.body.collect(upTo: 64 * 1024)
    let bytes = Array(buffer: body)
    let header = { (name: String) in HTTPField.Name(name).flatMap { request.headers[$0] } ?? "" }
    guard
        signer.verify(
            id: header("webhook-id"), timestamp: header("webhook-timestamp"), body: bytes,
            signatures: header("webhook-signature"))
    else {
        say("refused a delivery with a bad or stale signature")
        return Response(status: .unauthorized)
    }
    guard let answer = try? JSONDecoder().decode(ForwardedResponse.self, from: Data(bytes)) else {
        return Response(status: .badRequest)
    }
    let inviteID: String
    if case .string(let text)? = answer.payload["inviteId"] { inviteID = text } else { inviteID = "?" }
    let line =
        "\(answer.user) \(answer.action) \(inviteID)"
        + (answer.userText.map { " (\"\($0)\")" } ?? "")
    if await book.record(id: header("webhook-id"), line: line) {
        say("recorded RSVP: \(line)")
    } else {
        say("duplicate delivery \(header("webhook-id")) ignored")
    }
    return Response(status: .noContent)
}
router.get("/rsvps") { _, _ -> Response in
    let list = await book.rsvps.map { "\($0)\n" }.joined()
    return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: list)))
}

let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
say("invite-service: POST /rsvp on 127.0.0.1:\(port)")
try await app.runService()
