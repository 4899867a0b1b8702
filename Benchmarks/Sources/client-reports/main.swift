// Reports per second, one at a time as a phone sends them, against a running `actionable serve`:
//   - plain: URLSession POSTs of the bodies, no report queue (the baseline);
//   - report queue+fsync: ActionReporter.report (each report written, fsync'd, renamed, the directory
//     fsync'd, sent, then removed), as apps run it;
//   - report queue, no fsync: the same with synchronousWrites off, to show what the fsyncs cost.
// The three alternate ROUNDS times, each with bodies of its own (every request is a new 202).
//
// Usage: client-reports ENDPOINT BODIES REPORT_QUEUE PER_RUN ROUNDS
import ActionableClient
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 5, let endpoint = URL(string: arguments[0]), let perRun = Int(arguments[3]), let rounds = Int(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: client-reports ENDPOINT BODIES REPORT_QUEUE PER_RUN ROUNDS\n".utf8))
    exit(2)
}
let lines = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").map(String.init)
guard lines.count >= perRun * rounds * 3 else {
    FileHandle.standardError.write(Data("need \(perRun * rounds * 3) bodies, found \(lines.count)\n".utf8))
    exit(2)
}
let reportQueue = URL(fileURLWithPath: arguments[2])
/// The bodies of each run, in order: no body is sent twice.
var batches = stride(from: 0, to: perRun * rounds * 3, by: perRun).map { lines[$0..<($0 + perRun)] }.makeIterator()

func report(from line: String) throws -> ActionReport {
    struct Body: Decodable {
        var category: String
        var action: String
        var actionToken: String
        var payload: [String: ReportValue]
    }
    let body = try JSONDecoder().decode(Body.self, from: Data(line.utf8))
    return ActionReport(category: body.category, action: body.action, actionToken: body.actionToken, payload: body.payload)
}

let session = URLSession(configuration: .ephemeral)
func post(_ body: String) async throws -> Int {
    var request = URLRequest(url: endpoint.appendingPathComponent("v1/actions"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.utf8)
    return try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { _, response, error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
            }
        }.resume()
    }
}

func seconds(_ work: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

var figures: [String: [Double]] = [:]
let durable = ActionReporter(endpoint: endpoint, reportQueue: reportQueue.appendingPathComponent("fsync"))
let fast = ActionReporter(
    endpoint: endpoint, reportQueue: reportQueue.appendingPathComponent("nofsync"), options: .init(synchronousWrites: false))
for round in 1...rounds {
    guard let batch = batches.next(), let second = batches.next(), let third = batches.next() else { break }
    let plain = try await seconds {
        for body in batch where try await post(body) != 202 { throw CocoaError(.featureUnsupported) }
    }
    let reports = try second.map(report(from:))
    let withFsync = try await seconds {
        for report in reports {
            guard case .delivered(_, false) = try await durable.report(report) else { throw CocoaError(.featureUnsupported) }
        }
    }
    let unsynced = try third.map(report(from:))
    let withoutFsync = try await seconds {
        for report in unsynced {
            guard case .delivered(_, false) = try await fast.report(report) else { throw CocoaError(.featureUnsupported) }
        }
    }
    let row = [("plain URLSession", plain), ("report(), fsync'd report queue", withFsync), ("report(), report queue without fsync", withoutFsync)]
    for (name, time) in row { figures[name, default: []].append(Double(perRun) / time) }
    print("round \(round): " + row.map { "\($0.0) \(Int(Double(perRun) / $0.1))/s" }.joined(separator: ", "))
}
print("\nmedians over \(rounds) rounds of \(perRun) sequential reports each:")
for name in ["plain URLSession", "report(), fsync'd report queue", "report(), report queue without fsync"] {
    let sorted = (figures[name] ?? []).sorted()
    let median = sorted[sorted.count / 2]
    let perReport = 1000 / median
    print("| \(name) | \(Int(median)) reports/s | \(String(format: "%.2f", perReport)) ms each |")
}
