import ActionableCore
import ActionableRouter
import ActionableStore
import ActionableWire
import Foundation
import Hummingbird

/// Endpoints as data, behind the admin token:
///
/// - `GET /v1/endpoints`: every endpoint, by id;
/// - `POST /v1/endpoints` `{"id"?, "url", "filter", "secret"?, "rateLimit"?, "paused"?}` → 201;
///   409 when the id is taken;
/// - `GET /v1/endpoints/{id}`, `PATCH /v1/endpoints/{id}` (any of url, filter, secret — the old
///   one then signs beside it until `"previousSecret": null` —, rateLimit or null, paused);
/// - `POST /v1/endpoints/{id}/pause` and `/resume`.
///
/// Each is checked before it is stored: an http(s) URL, patterns that name the catalog's
/// categories and actions, a `whsec_` secret (or the server's `--forward-secret`), a rate above 0.
struct EndpointsController: Sendable {
    /// The catalog served now.
    let live: LiveCatalog
    private var catalog: Catalog { live.catalog }
    let storage: StorageGate
    private var store: any EndpointStore {
        get throws(StorageNotReady) { try storage.store() }
    }
    let settings: ServerSettings

    /// The fastest rate limit an endpoint may be given, per second.
    static let maximumRate = 10_000.0
    /// The slowest: one delivery every 100 seconds.
    static let minimumRate = 0.01
    /// The most patterns in one filter.
    static let maximumPatterns = 64

    func add(to routes: RouteCollection<ActionableRequestContext>) {
        routes.get("/v1/endpoints") { _, context in
            let endpoints = try await settings.storage(context) { try await store.endpoints() }
            return try ResponseBodies.response(WebhookEndpointList(items: endpoints.map(WebhookEndpoint.init)))
        }
        routes.post("/v1/endpoints") { request, context in
            let body = try await reader.decode(NewEndpointBody.self, from: request)
            let endpoint = try validated(body)
            let created = try await settings.storage(context) { try await store.createEndpoint(endpoint) }
            guard created else {
                throw Problem(.endpointExists, "an endpoint named \(endpoint.id) exists; change it with PATCH /v1/endpoints/\(endpoint.id)")
            }
            var response = try ResponseBodies.response(WebhookEndpoint(endpoint), status: .created)
            response.headers[.location] = "/v1/endpoints/\(endpoint.id)"
            return response
        }
        routes.get("/v1/endpoints/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let found = try await settings.storage(context) { try await store.endpoint(id: id) }
            guard let endpoint = found else { throw Self.unknown(id) }
            return try ResponseBodies.response(WebhookEndpoint(endpoint))
        }
        routes.patch("/v1/endpoints/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            let body = try await reader.decode(EndpointChangeBody.self, from: request)
            let change = try validated(body)
            return try await update(id, change, context)
        }
        routes.post("/v1/endpoints/:id/pause") { _, context in
            try await update(context.parameters.get("id") ?? "", EndpointChange(paused: true), context)
        }
        routes.post("/v1/endpoints/:id/resume") { _, context in
            try await update(context.parameters.get("id") ?? "", EndpointChange(paused: false), context)
        }
    }

    private var reader: JSONRequestReader { JSONRequestReader(maximumBodySize: settings.maximumBodySize, what: "an endpoint") }

    private func update(_ id: String, _ change: EndpointChange, _ context: ActionableRequestContext) async throws -> Response {
        let changed = try await settings.storage(context) { try await store.updateEndpoint(id: id, change, at: Date()) }
        guard let changed else { throw Self.unknown(id) }
        return try ResponseBodies.response(WebhookEndpoint(changed))
    }

    /// A new endpoint from `body`, or a 400 naming each field that is wrong.
    func validated(_ body: NewEndpointBody) throws -> Endpoint {
        var errors: [(String, String)] = []
        let id = body.id ?? "ep-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        if !Endpoint.isValidID(id) {
            errors.append(("/id", "must be 1 to 64 lowercase letters, digits and -, not starting with - (got \"\(id.prefix(80))\")"))
        }
        errors += Self.problems(url: body.url, filter: body.filter, secret: body.secret, rateLimit: body.rateLimit, catalog: catalog)
        if body.secret == nil && !settings.hasDefaultWebhookSecret {
            errors.append(("/secret", "is required: this server has no --forward-secret to sign with; give a whsec_ secret"))
        }
        guard errors.isEmpty else { throw Self.invalid(errors) }
        return Endpoint(
            id: id, url: body.url, filter: body.filter, secret: body.secret, rateLimit: body.rateLimit, paused: body.paused ?? false,
            createdAt: Date())
    }

    /// A change from `body`, or a 400 naming each field that is wrong.
    func validated(_ body: EndpointChangeBody) throws -> EndpointChange {
        let errors = Self.problems(url: body.url, filter: body.filter, secret: body.secret, rateLimit: body.rateLimit ?? nil, catalog: catalog)
        guard errors.isEmpty else { throw Self.invalid(errors) }
        return EndpointChange(
            url: body.url, filter: body.filter, secret: body.secret, dropPreviousSecret: body.dropPreviousSecret, rateLimit: body.rateLimit,
            paused: body.paused)
    }

    static func problems(url: String?, filter: [String]?, secret: String?, rateLimit: Double?, catalog: Catalog) -> [(String, String)] {
        var errors: [(String, String)] = []
        if let url {
            let parsed = URL(string: url)
            if url.utf8.count > 2048 || !(url.hasPrefix("http://") || url.hasPrefix("https://")) || parsed?.host?.isEmpty != false {
                errors.append(("/url", "must be an http:// or https:// URL with a host, at most 2048 bytes"))
            }
        }
        if let filter {
            if filter.isEmpty || filter.count > maximumPatterns {
                errors.append(("/filter", "must list 1 to \(maximumPatterns) patterns: category.action, category.* or *"))
            }
            for (index, pattern) in filter.enumerated() {
                do {
                    _ = try RoutePattern(parsing: pattern, in: catalog)
                } catch {
                    errors.append(("/filter/\(index)", error.description))
                }
            }
        }
        if let secret, Endpoint.secretKey(secret) == nil {
            errors.append(("/secret", "must be whsec_ followed by base64 of at least 16 random bytes"))
        }
        if let rateLimit, !(rateLimit >= minimumRate && rateLimit <= maximumRate) {
            errors.append(("/rateLimit", "must be from \(minimumRate) to \(Int(maximumRate)) a second, or null for no limit"))
        }
        return errors
    }

    private static func invalid(_ errors: [(String, String)]) -> Problem {
        Problem(.invalidRequest, errors.map { "\($0.0) \($0.1)" }.joined(separator: "; "), errors: errors)
    }

    private static func unknown(_ id: String) -> Problem {
        Problem(.notFound, "no endpoint is named \(id.prefix(80)); GET /v1/endpoints lists them")
    }
}

/// The body of `POST /v1/endpoints`. A member given as `null` is refused, as the contract says
/// (left out is how to say "none").
struct NewEndpointBody: Decodable, Sendable {
    enum CodingKeys: String, CodingKey { case id, url, filter, secret, rateLimit, paused }

    var id: String?
    var url: String
    var filter: [String]
    var secret: String?
    var rateLimit: Double?
    var paused: Bool?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try refuseNulls(in: container, [.id, .secret, .rateLimit, .paused])
        id = try container.decodeIfPresent(String.self, forKey: .id)
        url = try container.decode(String.self, forKey: .url)
        filter = try container.decode([String].self, forKey: .filter)
        secret = try container.decodeIfPresent(String.self, forKey: .secret)
        rateLimit = try container.decodeIfPresent(Double.self, forKey: .rateLimit)
        paused = try container.decodeIfPresent(Bool.self, forKey: .paused)
    }
}

/// Throws for each of `keys` that `container` holds as `null`.
private func refuseNulls<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, _ keys: [Key]) throws {
    for key in keys where container.contains(key) {
        if try container.decodeNil(forKey: key) {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: [key], debugDescription: "\(key.stringValue) may be left out, but not null"))
        }
    }
}

/// The body of `PATCH /v1/endpoints/{id}`: members left out stay as they are; `rateLimit: null`
/// removes the limit; `previousSecret: null` stops signing with the replaced secret.
struct EndpointChangeBody: Decodable, Sendable {
    enum CodingKeys: String, CodingKey { case url, filter, secret, previousSecret, rateLimit, paused }

    var url: String?
    var filter: [String]?
    var secret: String?
    var dropPreviousSecret = false
    var rateLimit: Double??
    var paused: Bool?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try refuseNulls(in: container, [.url, .filter, .secret, .paused])
        url = try container.decodeIfPresent(String.self, forKey: .url)
        filter = try container.decodeIfPresent([String].self, forKey: .filter)
        secret = try container.decodeIfPresent(String.self, forKey: .secret)
        paused = try container.decodeIfPresent(Bool.self, forKey: .paused)
        if container.contains(.rateLimit) {
            rateLimit = .some(try container.decodeNil(forKey: .rateLimit) ? nil : try container.decode(Double.self, forKey: .rateLimit))
        }
        if container.contains(.previousSecret) {
            guard try container.decodeNil(forKey: .previousSecret) else {
                throw DecodingError.typeMismatch(
                    String?.self,
                    .init(codingPath: [CodingKeys.previousSecret], debugDescription: "previousSecret can only be null (stop signing with it)"))
            }
            dropPreviousSecret = true
        }
    }
}

extension WebhookEndpoint {
    /// The answer for `endpoint`; its secrets are counted, never shown.
    init(_ endpoint: Endpoint) {
        self.init(
            id: endpoint.id, url: endpoint.url, filter: endpoint.filter, rateLimit: endpoint.rateLimit, paused: endpoint.paused,
            state: endpoint.state.rawValue, failureStreak: endpoint.failureStreak,
            nextProbeAt: endpoint.openUntil?.timeIntervalSince1970,
            secrets: endpoint.signingSecrets, seeded: endpoint.seeded)
    }
}
