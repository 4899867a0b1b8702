import ActionableWire
public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Carries reports to the server so that none is lost: each is saved in a report queue directory
/// before anything is sent, and leaves it only when the server has answered for good.
///
/// ```swift
/// let reporter = ActionReporter(
///     endpoint: URL(string: "https://api.example.com/")!,
///     reportQueue: applicationSupport.appendingPathComponent("actionable-outbox"))
/// let outcome = try await reporter.report(report)   // saved, then sent
/// await reporter.flush()                            // at launch and from a background task
/// ```
///
/// A report leaves the report queue only on a final answer of an Actionable server:
///
/// | server's answer | outcome | the report |
/// | --- | --- | --- |
/// | 202, 200 with the server's `{"id", "status"}` body | ``ReportOutcome/delivered(responseID:duplicate:)`` | removed |
/// | 409 `already-answered` | ``ReportOutcome/answeredBefore(_:)`` | removed |
/// | a 4xx problem document of a final type (the action token refused, a catalog or payload mismatch, a body the server will never take) | ``ReportOutcome/rejected(_:)``, with the problem's detail | removed |
/// | 408, 429, 5xx, a network error, 401 about the app's own token | ``ReportOutcome/kept(reason:nextAttempt:)`` | kept, with backoff |
/// | anything else: a 404 or 405 (the endpoint is not the server's base URL), a proxy's HTML page, a 2xx without the body, a 3xx (redirects are never followed) | ``ReportOutcome/kept(reason:nextAttempt:)``, logged as a configuration error | kept |
///
/// The server stores a notification's answer once, so a report sent twice (the app killed
/// after the server stored it and before the file was removed) is answered 200 and removed.
/// Within one process, a report is never sent twice at once, however many `flush()` and
/// `report(_:)` calls run together.
public actor ActionReporter {
    /// The server's base URL (`https://api.example.com/`); reports go to `v1/actions` under it.
    /// An endpoint given with `/v1/actions` at its end is taken for the base URL without it.
    public nonisolated let endpoint: URL
    /// The report queue directory.
    public nonisolated let reportQueue: URL

    private let store: ReportQueue
    private let options: Options
    private let session: URLSession
    private let actionsURL: URL
    /// Reports being sent right now, by name.
    private var inFlight: Set<String> = []
    /// The stamp of the last name given to a report.
    private var lastStamp: Int64 = 0

    /// A reporter for the server at `endpoint` that keeps its reports in the directory `reportQueue`
    /// (created if needed; give it a directory of its own, such as one under Application Support).
    ///
    /// Temporary files left by a process that died while writing are removed: their reports
    /// had not been saved, and `report(_:)` had not returned. A directory that cannot be made
    /// is not an error here: ``save(_:)`` and ``report(_:)`` throw ``ReportQueueError`` saying why.
    ///
    /// `endpoint` is the server's base URL; one that already ends in `/v1/actions` (a natural
    /// mistake) is read as the base URL before it, never doubled. Without `session`, the
    /// reporter's own session refuses redirects; a `session` you give must refuse them too (a
    /// redirect answered is kept, never taken for a delivery).
    public init(endpoint: URL, reportQueue: URL, options: Options = Options(), session: URLSession? = nil) {
        self.endpoint = Self.baseURL(of: endpoint)
        self.store = ReportQueue(directory: reportQueue, synchronous: options.synchronousWrites)
        self.reportQueue = store.directory
        self.options = options
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.requestTimeout
        // The whole exchange, not only the wait between two bytes: a server that trickles its
        // answer cannot hold a report (and the report queue's flush behind it) for long (a minute with
        // the default 15 s).
        configuration.timeoutIntervalForResource = options.requestTimeout * 4
        self.session = session ?? URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        self.actionsURL = Self.url(under: self.endpoint, "v1/actions")
        for name in store.leftoverTemporaryFiles() { store.removeTemporary(name) }
    }

    /// Saves `report` in the report queue, then sends it once.
    ///
    /// - Returns: what became of it; ``ReportOutcome/kept(reason:nextAttempt:)`` leaves it for
    ///   ``flush()``.
    ///
    /// When the report queue cannot be written (a full disk, a read-only directory), the report is
    /// sent at once without it (best effort) and the failure is logged: the outcome is final,
    /// or ``ReportOutcome/unsaved(reason:)``.
    @discardableResult
    public func report(_ report: ActionReport) async -> ReportOutcome {
        let id: String
        do {
            id = try save(report)
        } catch {
            return await sendUnsaved(report, because: error)
        }
        return await send(id: id) ?? .kept(reason: "being sent by another call", nextAttempt: options.now())
    }

    /// Sends `report` once without the report queue, because it could not be saved: best effort, with
    /// a log line saying so.
    public func sendUnsaved(_ report: ActionReport, because error: any Error) async -> ReportOutcome {
        options.log("the report could not be saved in the report queue (\(error)); sending it at once, without it")
        let entry = ReportQueueEntry(report: report, createdAt: options.now())
        switch await exchange(entry) {
        case .final(let outcome): return outcome
        case .keep(let reason, _):
            options.log("the unsaved \(report.category).\(report.action) report was not delivered: \(reason)")
            return .unsaved(reason: reason)
        }
    }

    /// Saves `report` in the report queue without sending it; returns its name there. When this
    /// returns, the report survives the process being killed.
    @discardableResult
    public func save(_ report: ActionReport) throws -> String {
        let now = options.now()
        // Names sort in the order of saves, even within one millisecond or if the clock steps back.
        lastStamp = max(ReportQueue.stamp(of: now), lastStamp + 1)
        let name = ReportQueue.newName(stamp: lastStamp)
        try store.write(ReportQueueEntry(report: report, createdAt: now), as: name)
        return name
    }

    /// Sends the saved report `id` once, whatever its next attempt's time. Returns nil if it is
    /// not in the report queue (delivered already) or is being sent by another call right now.
    @discardableResult
    public func send(id: String) async -> ReportOutcome? {
        guard !inFlight.contains(id) else { return nil }
        inFlight.insert(id)
        defer { inFlight.remove(id) }
        let entry: ReportQueueEntry
        do {
            guard let read = try store.read(id) else { return nil }
            entry = read
        } catch {
            moveAside(id, because: error)
            return nil
        }
        return await deliver(entry, as: id)
    }

    /// Sends every saved report now, oldest first, one at a time — except those whose server
    /// asked to wait (`Retry-After`) until a time still ahead. The reporter's own backoff does
    /// not hold a report back here: it only dates ``nextAttemptDate()``, for scheduling.
    /// Reports being sent by another call are left to it.
    ///
    /// Call it when the app launches, when it comes to the foreground, and from a background
    /// task (`BGAppRefreshTask`).
    @discardableResult
    public func flush() async -> [ReportResult] {
        let reports: [String]
        do {
            let listing = try store.listing()
            for name in listing.foreign { moveAside(name, because: nil) }
            reports = listing.reports
        } catch {
            options.log("\(error)")
            return []
        }
        var results: [ReportResult] = []
        for id in reports where !inFlight.contains(id) {
            inFlight.insert(id)
            defer { inFlight.remove(id) }
            let entry: ReportQueueEntry
            do {
                guard let read = try store.read(id) else { continue }
                entry = read
            } catch {
                moveAside(id, because: error)
                continue
            }
            if let retryAfter = entry.retryAfter, retryAfter > options.now() { continue }
            let outcome = await deliver(entry, as: id)
            results.append(ReportResult(id: id, report: entry.report, outcome: outcome))
        }
        return results
    }

    /// What the report queue holds, oldest first.
    public func pendingReports() -> [PendingReport] {
        let names = (try? store.listing().reports) ?? []
        return names.compactMap { name in
            guard let entry = try? store.read(name) else { return nil }
            return PendingReport(
                id: name, report: entry.report, savedAt: entry.createdAt, attempts: entry.attempts, nextAttempt: entry.nextAttempt,
                lastError: entry.lastError)
        }
    }

    /// The earliest time a kept report is due (nil when the report queue is empty): when to schedule
    /// the next background flush.
    public func nextAttemptDate() -> Date? {
        pendingReports().map { $0.nextAttempt ?? $0.savedAt }.min()
    }

    /// `endpoint` without a trailing `v1/actions`, so that it is not doubled.
    static func baseURL(of endpoint: URL) -> URL {
        let path = endpoint.path
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed.hasSuffix("/v1/actions") || trimmed == "v1/actions",
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true)
        else { return endpoint }
        components.path = String(trimmed.dropLast("v1/actions".count))
        return components.url ?? endpoint
    }

    /// `path` under `endpoint`, whether or not its path ends with a slash.
    private static func url(under endpoint: URL, _ path: String) -> URL {
        var base = endpoint
        if !base.path.hasSuffix("/") { base = base.appendingPathComponent("") }
        return base.appendingPathComponent(path, isDirectory: false)
    }

    /// `path` under the server's base URL.
    nonisolated func serverURL(_ path: String) -> URL { Self.url(under: endpoint, path) }
    /// The session requests go through.
    var urlSession: URLSession { session }
    /// How long one request may take.
    var requestTimeout: TimeInterval { options.requestTimeout }

    /// The app's own token, if the options give a provider and it has one.
    func currentBearerToken() async throws -> String? {
        guard let provider = options.bearerToken else { return nil }
        return try await provider()
    }

    // MARK: - Sending

    private func deliver(_ entry: ReportQueueEntry, as id: String) async -> ReportOutcome {
        switch await exchange(entry) {
        case .final(let outcome):
            finish(id)
            return outcome
        case .keep(let reason, let retryAfter):
            return keep(entry, as: id, reason: reason, retryAfter: retryAfter)
        }
    }

    /// What one send of `entry` came to: a final answer of an Actionable server, or a reason to
    /// keep it (with the server's `Retry-After`, if it gave one).
    enum Exchange {
        case final(ReportOutcome)
        case keep(reason: String, retryAfter: Date?)
    }

    private func exchange(_ entry: ReportQueueEntry) async -> Exchange {
        let request: URLRequest
        do {
            request = try await makeRequest(for: entry.report)
        } catch {
            return .keep(reason: "the app's token is not available (\(error))", retryAfter: nil)
        }
        let answer: HTTPExchange.Answer
        do {
            answer = try await HTTPExchange.send(request, on: session)
        } catch {
            return .keep(reason: "network error: \(error.localizedDescription)", retryAfter: nil)
        }
        let outcome = Self.read(answer, now: options.now(), actionsURL: actionsURL, log: options.log)
        if case .final(.rejected(let problem)) = outcome {
            options.log("the server refused the \(entry.report.category).\(entry.report.action) report for good: \(problem)")
        }
        return outcome
    }

    /// What the server's `answer` means for a report, read at `now`: whatever its status,
    /// headers and body (a peer's answer: the fuzz target `fuzz-upstream-answers` feeds it
    /// arbitrary ones), never a trap.
    static func read(_ answer: HTTPExchange.Answer, now: Date, actionsURL: URL, log: (String) -> Void) -> Exchange {
        let problem = ServerProblem(status: answer.status, body: answer.body)
        let isProblem =
            answer.header("Content-Type")?.lowercased().hasPrefix("application/problem+json") == true
            && problem.type.hasPrefix(ServerProblem.typeBase)
        switch answer.status {
        case 200, 202:
            if let accepted = try? JSONDecoder().decode(ActionAnswer.self, from: answer.body), ActionAnswer.statuses.contains(accepted.status) {
                return .final(.delivered(responseID: accepted.id, duplicate: answer.status == 200 || accepted.status == "duplicate"))
            }
            return configurationError("a \(answer.status) without the server's {\"id\", \"status\"} body", actionsURL: actionsURL, log: log)
        case 409 where isProblem && problem.name == "already-answered":
            return .final(.answeredBefore(problem))
        case 408, 429, 500...599:
            return .keep(reason: problem.description, retryAfter: HTTPExchange.retryAfter(answer.header("Retry-After"), now: now))
        case 401 where isProblem && problem.name.hasPrefix("app-token"):
            return .keep(reason: problem.description, retryAfter: nil)
        case 400...499 where isProblem && ServerProblem.isFinal(problem.name):
            return .final(.rejected(problem))
        case 300...399:
            let location = answer.header("Location").map { String($0.prefix(200)) } ?? "nowhere"
            return configurationError(
                "a redirect to \(location) (redirects are not followed: give the server's own URL)", actionsURL: actionsURL, log: log)
        default:
            return configurationError("HTTP \(answer.status) that is not an answer of an Actionable server", actionsURL: actionsURL, log: log)
        }
    }

    /// Keeps a report whose answer did not come from an Actionable server at the endpoint,
    /// logging the likely mistake.
    private static func configurationError(_ what: String, actionsURL: URL, log: (String) -> Void) -> Exchange {
        let reason =
            "\(actionsURL.absoluteString) answered \(what): is endpoint the Actionable server's base URL "
            + "(not a proxy, not a path under it)? The report is kept."
        log("configuration error: \(reason)")
        return .keep(reason: reason, retryAfter: nil)
    }

    private func makeRequest(for report: ActionReport) async throws -> URLRequest {
        var request = URLRequest(url: actionsURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: options.requestTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.httpBody = try report.requestBody()
        if let token = try await currentBearerToken() { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// Removes a report that has its final answer.
    private func finish(_ id: String) {
        do { try store.remove(id) } catch { options.log("\(error)") }
    }

    /// Keeps a report for a later flush, after a backoff or the server's `Retry-After`.
    private func keep(_ entry: ReportQueueEntry, as id: String, reason: String, retryAfter: Date?) -> ReportOutcome {
        var entry = entry
        entry.attempts += 1
        entry.retryAfter = retryAfter
        let now = options.now()
        let backoff = now.addingTimeInterval(options.retrySchedule.delay(afterAttempt: entry.attempts, random: options.random()))
        let next = retryAfter ?? backoff
        entry.nextAttempt = next
        entry.lastError = reason
        do { try store.write(entry, as: id) } catch { options.log("\(error)") }
        return .kept(reason: reason, nextAttempt: next)
    }

    /// Moves a file that is not a report out of the way, with a log line.
    private func moveAside(_ name: String, because error: (any Error)?) {
        do {
            let path = try store.quarantine(name)
            let why = error.map { "\($0)" } ?? "\(name) is not a report this queue wrote"
            options.log("\(why); moved to \(path)")
        } catch {
            options.log("\(error)")
        }
    }
}
