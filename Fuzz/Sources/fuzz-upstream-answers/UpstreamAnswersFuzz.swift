import ActionableAPNs
import ActionableDelivery
import ActionableFCM
import ActionableRouter
import ActionableWire
import Foundation
import FuzzSupport
import NIOHTTP1

@testable import ActionableClient

// An answer read back from a peer — an upstream endpoint or the ops endpoint (the forwarder),
// APNs (the APNs client), FCM (the FCM client), or the server itself (the app's client) — given
// as arbitrary bytes:
// two bytes of status (any Int, the extremes included), header lines up to an empty line, then
// the body. Each client's answer-to-outcome mapping must answer without a trap, and every delay
// or date it reads from the answer must stay within its bounds.

let now = Date(timeIntervalSince1970: 1_800_000_000)
let forwarder = Forwarder(url: "http://127.0.0.1:9/hook", signer: try! WebhookSigner(secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
let actionsURL = URL(string: "http://127.0.0.1:9/v1/actions")!

func status(_ input: [UInt8]) -> Int {
    guard input.count >= 2 else { return 200 }
    let raw = Int(input[0]) << 8 | Int(input[1])
    switch raw {
    case 0xFFFF: return .max
    case 0xFFFE: return .min
    default: return raw % 1200 - 100  // -100 …1099: every class, and what HTTP does not define
    }
}

func test(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = bytes(data, count)
    let code = status(input)
    let rest = Array(input.dropFirst(2))
    let text = String(decoding: rest, as: UTF8.self)
    let parts = text.components(separatedBy: "\n\n")
    var headers = HTTPHeaders()
    var dictionary: [String: String] = [:]
    for line in (parts.first ?? "").split(separator: "\n", omittingEmptySubsequences: true).prefix(64) {
        let pair = line.split(separator: ":", maxSplits: 1)
        guard pair.count == 2 else { continue }
        let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
        let value = String(pair[1]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else { continue }
        headers.add(name: name, value: value)
        dictionary[name] = value
        // Every header value read as a Retry-After: a finite delay within its bound, or none.
        if let delay = RetryAfter.delay(value, now: now) {
            precondition(delay.isFinite && delay >= 0 && delay <= RetryAfter.longest, "Retry-After \(value) read as \(delay)")
        }
    }
    let body = Array(parts.dropFirst().joined(separator: "\n\n").utf8)

    // The forwarder: done, a retry within an hour, dead with a reason, or a failed attempt.
    do {
        if case .retry(let after) = try forwarder.outcome(status: code, headers: headers, now: now), let after {
            precondition(after >= .zero && after <= .seconds(3600), "a retry after \(after)")
        }
    } catch {
        precondition("\(error)".contains("127.0.0.1:9"), "a failure names its upstream")
    }

    // APNs: whatever the body, a 410's time is within 1970 … now, a retry hint finite.
    switch APNsClient.answer(status: code, headers: headers, body: body, now: now) {
    case .unregistered(let since):
        if let since { precondition(since.timeIntervalSince1970 >= 0 && since <= now, "410 since \(since)") }
    case .retry(_, let after):
        if let after { precondition(after.isFinite && after >= 0 && after <= RetryAfter.longest, "APNs retry after \(after)") }
    default:
        break
    }

    // FCM: whatever the body, only FCM's own codes unregister, a retry hint is finite and bounded,
    // and every text read from the body is cut.
    let fcmRetry = headers.first(name: "Retry-After").flatMap { RetryAfter.delay($0, now: now) }
    switch FCMAnswer(status: code, body: body, retryAfter: fcmRetry) {
    case .sent(let name):
        precondition(name.count <= 300, "a message name of \(name.count) characters")
    case .unregistered(let status, let reason):
        precondition([400, 403, 404].contains(status), "unregistered on \(status)")
        precondition(reason.count <= 300, "a reason of \(reason.count) characters")
    case .retry(let reason, let after):
        precondition(reason.count <= 300, "a reason of \(reason.count) characters")
        if let after { precondition(after.isFinite && after >= 0 && after <= RetryAfter.longest, "FCM retry after \(after)") }
    case .failed(_, let reason):
        precondition(reason.count <= 300, "a reason of \(reason.count) characters")
    case .unauthenticated:
        precondition(code == 401, "unauthenticated on \(code)")
    }

    // The app's client: a report is kept (with a Retry-After within an hour) or given a final outcome.
    let answer = HTTPExchange.Answer(status: code, headers: dictionary, body: Data(body))
    if case .keep(let reason, let retryAfter) = ActionReporter.read(answer, now: now, actionsURL: actionsURL, log: { _ in }) {
        precondition(reason.utf8.count <= 4096, "a kept reason of \(reason.utf8.count) bytes")
        if let retryAfter { precondition(retryAfter >= now && retryAfter <= now.addingTimeInterval(3600), "kept until \(retryAfter)") }
    }
    return 0
}
