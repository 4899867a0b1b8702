public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Keeps the app's copy of the server's categories: fetches `GET /v1/categories` with
/// `If-None-Match`, keeps the last catalog and its `ETag` in one file, and reads it back at the
/// next launch, so an installed app shows buttons the server's files gained without a release.
///
/// ```swift
/// let sync = CatalogSync(server: URL(string: "https://api.example.com/")!,
///                        cache: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
///                            .appendingPathComponent("actionable-catalog"))
/// ```
///
/// On iOS, `registerAtLaunch(compiled:on:)` registers it with the notification
/// center, and `NotificationServiceCategories` does it from a notification service extension
/// (share the cache through an app group's container).
public actor CatalogSync {
    /// What ``refresh()`` found.
    public enum Refresh: Sendable, Hashable {
        /// The server answered `304`: the cached catalog is current.
        case unchanged(ServedCatalog)
        /// The server served a catalog with another `ETag`; it is now the cached one.
        case changed(ServedCatalog)

        /// The catalog, current either way.
        public var catalog: ServedCatalog {
            switch self {
            case .unchanged(let catalog), .changed(let catalog): return catalog
            }
        }
    }

    /// Why a refresh did not get a catalog. The cached one, if any, stays.
    public enum RefreshError: Error, Hashable, Sendable {
        /// No answer (the server down, no network, the time limit).
        case unreachable(String)
        /// An answer that is not `200` or `304` (a redirect is not followed).
        case status(Int)
        /// A `304` while nothing is cached, or a `200` without an `ETag`.
        case protocolViolation(String)
        /// The body passed the size limit.
        case tooLarge(limit: Int)
        /// The body is not a catalog.
        case notACatalog(String)
    }

    private let endpoint: URL
    private let cacheFile: URL
    private let servedFile: URL
    private let configuration: URLSessionConfiguration
    private let languages: [String]
    private let limit: Int
    private var stored: Stored? {
        didSet { snapshot.set(stored?.catalog) }
    }
    private var loaded = false
    /// The catalog last kept, readable from any thread (``payloadKeys(ofCategory:)``).
    private nonisolated let snapshot = CatalogSnapshot()

    private struct Stored {
        var etag: String
        var body: Data
        var catalog: ServedCatalog
    }

    /// A sync with the server at `server` (its `v1/categories` under it), caching in the
    /// directory `cache` (made when first written).
    ///
    /// - Parameters:
    ///   - server: the server's base URL, as for `ActionReporter`.
    ///   - cache: a directory of its own: the catalog and its `ETag` are one file in it.
    ///   - languages: the device's languages, most preferred first; titles are resolved for them.
    ///   - timeout: the longest a refresh may take, in seconds.
    ///   - limit: the largest catalog accepted, in bytes (1 MiB; a download stops past it).
    ///   - configuration: the session configuration to copy (the default one without it).
    public init(
        server: URL, cache: URL, languages: [String] = Locale.preferredLanguages, timeout: TimeInterval = 10,
        limit: Int = 1 << 20, configuration: URLSessionConfiguration? = nil
    ) {
        let base = server.absoluteString.hasSuffix("/") ? server : server.appendingPathComponent("")
        endpoint = base.appendingPathComponent("v1").appendingPathComponent("categories")
        cacheFile = cache.appendingPathComponent("catalog")
        servedFile = cache.appendingPathComponent("registered")
        // A copy: the caller's configuration keeps its own timeouts and cache policy.
        let configuration = (configuration?.copy() as? URLSessionConfiguration) ?? URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.configuration = configuration
        self.languages = languages
        self.limit = limit
    }

    /// The catalog kept by the last refresh (of this or an earlier launch), or `nil`.
    public func cached() -> ServedCatalog? {
        loadIfNeeded()
        return stored?.catalog
    }

    /// The payload keys of category `identifier` in the catalog last kept (by a refresh of this
    /// launch, or read from the cache), or `nil` when it has no such category. Not isolated to
    /// the actor: `NotificationResponseHandler`'s `payloadKeys`, which is synchronous, can ask it
    /// after the generated categories:
    ///
    /// ```swift
    /// NotificationResponseHandler(reporter: reporter) { category in
    ///     NotificationCategories.payloadKeys(ofCategory: category) ?? sync.payloadKeys(ofCategory: category)
    /// }
    /// ```
    public nonisolated func payloadKeys(ofCategory identifier: String) -> Set<String>? {
        snapshot.catalog(orLoad: { Self.read(cacheFile, languages: languages)?.catalog })?.payloadKeys(ofCategory: identifier)
    }

    /// The cached catalog's `ETag`, or `nil`.
    public func cachedETag() -> String? {
        loadIfNeeded()
        return stored?.etag
    }

    /// Asks the server for its catalog, naming the cached one's `ETag`: `304` keeps it, `200`
    /// replaces it (on disk too). Throws ``RefreshError``; the cached catalog is kept then.
    @discardableResult
    public func refresh() async throws -> Refresh {
        loadIfNeeded()
        var request = URLRequest(url: endpoint)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag = stored?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let answer: HTTPExchange.Answer
        do {
            answer = try await CappedDownload.get(request, configuration: configuration, limit: limit)
        } catch CappedDownload.Failure.tooLarge(let limit) {
            throw RefreshError.tooLarge(limit: limit)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw RefreshError.unreachable(error.localizedDescription)
        }
        switch answer.status {
        case 304:
            guard let stored else { throw RefreshError.protocolViolation("304 Not Modified, but nothing is cached") }
            return .unchanged(stored.catalog)
        case 200:
            guard let etag = answer.header("ETag"), Self.isEntityTag(etag) else {
                throw RefreshError.protocolViolation("200 without a valid ETag")
            }
            let catalog: ServedCatalog
            do {
                catalog = try ServedCatalog(json: answer.body, languages: languages)
            } catch let error as ServedCatalogError {
                throw RefreshError.notACatalog(error.description)
            }
            if let stored, stored.etag == etag, stored.body == answer.body { return .unchanged(stored.catalog) }
            stored = Stored(etag: etag, body: answer.body, catalog: catalog)
            write(etag: etag, body: answer.body)
            return .changed(catalog)
        default:
            throw RefreshError.status(answer.status)
        }
    }

    /// `"…"` or `W/"…"`, printable ASCII: what may go back in `If-None-Match` on one line.
    static func isEntityTag(_ value: String) -> Bool {
        let tag = value.hasPrefix("W/") ? String(value.dropFirst(2)) : value
        return tag.count >= 2 && tag.count <= 256 && tag.hasPrefix("\"") && tag.hasSuffix("\"")
            && tag.dropFirst().dropLast().unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" }
    }

    /// The identifiers last registered from a served catalog (kept on disk): a category the
    /// server no longer serves is removed from the notification center by the next registration.
    package func lastServed() -> Set<String> {
        guard let text = try? String(contentsOf: servedFile, encoding: .utf8) else { return [] }
        return Set(text.split(separator: "\n").map(String.init).filter(ServedCatalog.isIdentifier))
    }

    /// Keeps `identifiers` as the last registered from a served catalog.
    package func recordServed(_ identifiers: Set<String>) {
        guard identifiers != lastServed() else { return }
        try? FileManager.default.createDirectory(at: servedFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(identifiers.sorted().joined(separator: "\n").utf8).write(to: servedFile, options: .atomic)
    }

    private func loadIfNeeded() {
        guard !loaded else { return }
        loaded = true
        stored = Self.read(cacheFile, languages: languages)
    }

    /// The cache file's catalog: the ETag, a newline, and the body as served (written in one
    /// atomic step); `nil` when absent or not a catalog.
    private static func read(_ cacheFile: URL, languages: [String]) -> Stored? {
        guard let data = try? Data(contentsOf: cacheFile), let newline = data.firstIndex(of: 0x0A),
            let etag = String(data: data[data.startIndex..<newline], encoding: .utf8), Self.isEntityTag(etag)
        else { return nil }
        let body = Data(data[data.index(after: newline)...])
        guard let catalog = try? ServedCatalog(json: body, languages: languages) else { return nil }
        return Stored(etag: etag, body: body, catalog: catalog)
    }

    private func write(etag: String, body: Data) {
        do {
            try FileManager.default.createDirectory(at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (Data(etag.utf8) + Data([0x0A]) + body).write(to: cacheFile, options: .atomic)
        } catch {
            // The catalog is used for this launch; the next one asks again without an ETag.
        }
    }
}

/// The catalog a ``CatalogSync`` last kept, behind a lock: read from any thread, set by the actor.
final class CatalogSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private var current: ServedCatalog?
    private var known = false

    /// Sets the catalog kept now (nil: none).
    func set(_ catalog: ServedCatalog?) {
        lock.lock()
        current = catalog
        known = true
        lock.unlock()
    }

    /// The catalog kept now; before the actor has read its cache, what `load` reads.
    func catalog(orLoad load: () -> ServedCatalog?) -> ServedCatalog? {
        lock.lock()
        defer { lock.unlock() }
        if !known {
            current = load()
            known = true
        }
        return current
    }
}
