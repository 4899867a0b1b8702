// The ceiling for the server load benchmark: a bare Hummingbird endpoint, built like
// `actionable serve` (release, the same Hummingbird), that only decodes the same JSON body as
// `POST /v1/actions` and answers 202 with a body of the same shape. No tokens, no storage.
//
// It also serves `POST /sink/{endpoint}` (204), the upstream of `Benchmarks/endpoints-load.sh`,
// and `POST /v1/traces` (200, an empty OTLP answer), its collector when tracing is on.
//
// Usage: ceiling-server PORT
import Foundation
import Hummingbird

struct ActionBody: Decodable {
    var category: String
    var action: String
    var actionToken: String?
    var notificationId: String?
    var userText: String?
    var payload: [String: String]?
}

struct Accepted: ResponseEncodable {
    var id: String
    var status: String
}

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8090
let router = Router()
router.post("/v1/actions") { request, context -> EditedResponse<Accepted> in
    _ = try await request.decode(as: ActionBody.self, context: context)
    return EditedResponse(status: .accepted, response: Accepted(id: UUID().uuidString, status: "accepted"))
}
// The upstream of the endpoints benchmark: takes a delivery and answers 204.
router.post("/sink/:endpoint") { request, _ -> HTTPResponse.Status in
    _ = try await request.body.collect(upTo: 1 << 20)
    return .noContent
}
// The collector of the endpoints benchmark's traced runs: takes an OTLP/HTTP export, answers an
// empty ExportTraceServiceResponse (zero bytes of protobuf).
router.post("/v1/traces") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 64 << 20)
    return Response(status: .ok, headers: [.contentType: "application/x-protobuf"], body: .init())
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
