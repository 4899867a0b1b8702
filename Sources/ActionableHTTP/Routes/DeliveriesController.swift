import ActionableCore
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// The operators' view of deliveries, behind the admin token:
///
/// - `GET /v1/deliveries?state=&category=&since=&until=&limit=&cursor=`: newest first, a page at
///   a time (`{"items": [...], "nextCursor": "..."}`, no `nextCursor` on the last page);
/// - `POST /v1/deliveries/{id}/retry`: a dead or delivered response queued again (same id, so
///   the same `webhook-id`); 404 unknown, 409 while pending;
/// - `POST /v1/deliveries/retry` with the filters as a JSON body: `{"queued": N}`.
struct DeliveriesController: Sendable {
    /// Where storage is reached once it is open.
    let storage: StorageGate
    private var store: any ResponseAdministration {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings

    /// The largest page.
    static let maximumLimit = 500

    func add(to routes: RouteCollection<ActionableRequestContext>) {
        routes.get("/v1/deliveries") { request, context in
            let filter = try Self.filter(from: request.uri.queryParameters)
            let query = request.uri.queryParameters
            let limit = try Self.limit(query["limit"].map(String.init))
            var cursor: ResponseCursor?
            if let token = query["cursor"].map(String.init) {
                guard let parsed = ResponseCursor(token: token) else {
                    throw Self.invalidQuery("cursor", "is not a cursor this server gave; start again without it")
                }
                cursor = parsed
            }
            let page = try await settings.storage(context) { try await store.responses(matching: filter, after: cursor, limit: limit) }
            return try ResponseBodies.response(
                ResponsePage(items: page.items.map(ListedResponse.init), nextCursor: page.next?.token))
        }
        routes.post("/v1/deliveries/:id/retry") { _, context in
            let id = context.parameters.get("id") ?? ""
            switch try await settings.storage(context) { try await store.requeue(id: id, at: Date()) } {
            case .queued:
                return try ResponseBodies.response(Requeued(id: id), status: .accepted)
            case .alreadyPending:
                throw Problem(
                    .deliveryPending, "response \(id) is waiting for its next delivery attempt already; retry it once it is dead or delivered")
            case .notFound:
                throw Problem(.notFound, "no response has the id \(id)")
            }
        }
        routes.post("/v1/deliveries/retry") { request, context in
            let body = try await JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "a retry request")
                .decode(RetryFilterBody.self, from: request)
            try body.checkScope()
            let filter = try Self.filter(
                state: body.state, category: body.category, since: body.since.map(\.text), until: body.until.map(\.text), pointer: "/")
            let queued = try await settings.storage(context) { try await store.requeue(matching: filter, at: Date()) }
            return try ResponseBodies.response(RequeuedCount(queued: queued))
        }
    }

    static func filter(from query: Parameters) throws -> ResponseFilter {
        try filter(
            state: query["state"].map(String.init), category: query["category"].map(String.init),
            since: query["since"].map(String.init), until: query["until"].map(String.init), pointer: "")
    }

    /// The filter of `state`, `category`, `since` and `until` (Unix seconds or ISO 8601).
    static func filter(state: String?, category: String?, since: String?, until: String?, pointer: String) throws -> ResponseFilter {
        var filter = ResponseFilter(category: category)
        if let state {
            guard let status = ResponseStatus(rawValue: state) else {
                throw invalidQuery("\(pointer)state", "must be pending, held, delivered or dead (got \"\(state)\")")
            }
            filter.status = status
        }
        filter.since = try since.map { try time($0, name: "\(pointer)since") }
        filter.until = try until.map { try time($0, name: "\(pointer)until") }
        return filter
    }

    private static func time(_ text: String, name: String) throws -> Date {
        if let date = Timestamp.parse(text) { return date }
        throw invalidQuery(name, "must be Unix seconds or an ISO 8601 time such as 2026-11-23T08:00:00Z (got \"\(text)\")")
    }

    private static func limit(_ text: String?) throws -> Int {
        guard let text else { return 50 }
        guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
            throw invalidQuery("limit", "must be a whole number from 1 to \(maximumLimit) (got \"\(text)\")")
        }
        return limit
    }

    private static func invalidQuery(_ name: String, _ detail: String) -> Problem {
        Problem(.invalidRequest, "\(name) \(detail)", errors: [(name.hasPrefix("/") ? name : "/\(name)", detail)])
    }
}

/// The body of `POST /v1/deliveries/retry`: the same filters as the list; times as Unix
/// seconds or ISO 8601 text. A field given as `null` is refused, as the contract says. An
/// empty body (`{}`) is refused too: re-queueing every response must be asked for in so many
/// words, with `"all": true`.
struct RetryFilterBody: Decodable, Sendable {
    enum CodingKeys: String, CodingKey { case state, category, since, until, all }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        for key in [CodingKeys.state, .category, .since, .until] where container.contains(key) {
            if try container.decodeNil(forKey: key) {
                throw DecodingError.typeMismatch(
                    String.self, .init(codingPath: [key], debugDescription: "\(key.stringValue) may be left out, but not null"))
            }
        }
        state = try container.decodeIfPresent(String.self, forKey: .state)
        category = try container.decodeIfPresent(String.self, forKey: .category)
        since = try container.decodeIfPresent(Time.self, forKey: .since)
        until = try container.decodeIfPresent(Time.self, forKey: .until)
        all = try container.decodeIfPresent(Bool.self, forKey: .all) ?? false
    }

    /// 400 unless the body names a filter, or says `"all": true` and no filter.
    func checkScope() throws {
        let filtered = state != nil || category != nil || since != nil || until != nil
        if all && filtered {
            throw Problem(
                .invalidRequest, "\"all\": true re-queues every response; leave the filters out, or drop \"all\"",
                errors: [("/all", "true together with filters")])
        }
        if !all && !filtered {
            throw Problem(
                .invalidRequest, "give a filter (state, category, since, until), or \"all\": true to re-queue every response",
                errors: [("/all", "required when no filter is given")])
        }
    }

    /// A time given as a number or a string.
    struct Time: Decodable, Sendable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { text = String(seconds) } else { text = try container.decode(String.self) }
        }
    }
    var state: String?
    var category: String?
    var since: Time?
    var until: Time?
    /// Every response, when no filter is given.
    var all: Bool
}
