public import Logging

/// Storage drivers by URL scheme: `sqlite:PATH`, `postgres://…`, `memory:`. A new driver is a
/// module of its own in this package that conforms to ``ActionStore``, and one
/// ``register(scheme:_:validate:open:)`` call.
///
/// ```swift
/// var drivers = StorageDriverRegistry()
/// drivers.register(scheme: "sqlite", "sqlite:PATH") { url, _ in
///     try await SQLiteActionStore(path: url.afterScheme)
/// }
/// let store = try await drivers.open("sqlite:data/actionable.sqlite", logger: logger)
/// ```
public struct StorageDriverRegistry: Sendable {
    /// Opens a store for a URL of the driver's scheme.
    public typealias Opener = @Sendable (StorageURL, Logger) async throws -> any ActionStore

    /// Checks a URL of the driver's scheme without connecting (a malformed URL is refused at
    /// once instead of being retried).
    public typealias Validator = @Sendable (StorageURL) throws -> Void

    private struct Driver: Sendable {
        var summary: String
        var validate: Validator?
        var open: Opener
    }

    private var drivers: [String: Driver] = [:]
    private var order: [String] = []

    /// A registry with no drivers.
    public init() {}

    /// Registers `open` for URLs whose scheme is `scheme` (case-insensitive), replacing any
    /// driver registered for it before. `summary` names it in error messages; `validate`, if
    /// given, checks a URL before any attempt to open it.
    public mutating func register(
        scheme: String, _ summary: String, validate: Validator? = nil, open: @escaping Opener
    ) {
        let scheme = scheme.lowercased()
        if drivers[scheme] == nil { order.append(scheme) }
        drivers[scheme] = Driver(summary: summary, validate: validate, open: open)
    }

    /// The schemes registered, in registration order.
    public var schemes: [String] { order }

    /// Opens the store `url` names, through the driver of its scheme.
    public func open(_ url: String, logger: Logger) async throws -> any ActionStore {
        let parsed = try parse(url)
        guard let driver = drivers[parsed.scheme] else { throw unknown(url) }
        return try await driver.open(parsed, logger)
    }

    /// Checks that a driver takes `url` (and that its validator accepts it), without opening anything.
    public func parse(_ url: String) throws -> StorageURL {
        guard let colon = url.firstIndex(of: ":") else { throw unknown(url) }
        let scheme = url[..<colon].lowercased()
        guard let driver = drivers[scheme] else { throw unknown(url) }
        let parsed = StorageURL(text: url, scheme: scheme, afterScheme: String(url[url.index(after: colon)...]))
        try driver.validate?(parsed)
        return parsed
    }

    private func unknown(_ url: String) -> StoreError {
        let known = order.map { "\($0): (\(drivers[$0]?.summary ?? ""))" }.joined(separator: ", ")
        return StoreError("storage \"\(StorageURL.redacted(url))\" names no known driver; use one of \(known)")
    }
}

/// A storage URL, split at its scheme.
public struct StorageURL: Hashable, Sendable, CustomStringConvertible {
    /// The whole URL as given (it may hold a password: print ``redacted``).
    public var text: String
    /// The scheme, lowercased: `sqlite`, `postgres`, `memory`.
    public var scheme: String
    /// What follows `scheme:` (a path for `sqlite:`).
    public var afterScheme: String

    /// The URL without its password, for logs and messages.
    public var redacted: String { Self.redacted(text) }
    public var description: String { redacted }

    /// `url` with the password of its user information replaced by `***`, even when the URL
    /// is malformed: the user information ends at the last `@` (a password may hold a raw `/`,
    /// `?`, `#` or `@`), and everything between the user's `:` and that `@` is hidden.
    public static func redacted(_ url: String) -> String {
        // After `scheme:` and the `//` of an authority, if written (`postgres:user:pw@host` is
        // malformed, but its password is still a password).
        guard let schemeEnd = url.firstIndex(of: ":") else { return url }
        var rest = url[url.index(after: schemeEnd)...]
        while rest.hasPrefix("/") { rest = rest.dropFirst() }
        guard let at = rest.lastIndex(of: "@") else { return url }
        guard let colon = rest[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<rest.index(after: colon)]) + "***" + String(url[at...])
    }
}
