public import ActionableCore
import Crypto
public import Foundation
import Synchronization

/// The catalog a server serves now: read by every request as it starts, and swapped whole when
/// the category files are loaded again (``reload(at:)``), so that a request sees one catalog from
/// its start to its answer and the next request sees the new one.
///
/// A reload that fails leaves the served catalog as it was and is kept as ``lastReload`` (what
/// `/admin` shows).
public final class LiveCatalog: Sendable {
    /// One catalog as it is served: its categories, the exact bytes of `GET /v1/categories` and
    /// their entity tag.
    public struct Release: Sendable {
        /// The categories.
        public let catalog: Catalog
        /// `GET /v1/categories`'s body: the normalized catalog.
        public let body: String
        /// A hash of ``body``, quoted: the `ETag` header.
        public let etag: String
        /// When it began to be served.
        public let since: Date

        init(_ catalog: Catalog, since: Date) {
            self.catalog = catalog
            body = catalog.jsonValue.serialized()
            let digest = SHA256.hash(data: Array(body.utf8))
            etag = "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
            self.since = since
        }
    }

    /// What a reload came to.
    public struct Reload: Sendable, Equatable {
        /// The outcomes of a reload.
        public enum Outcome: Sendable, Equatable {
            /// The files loaded and differ from what was served: the new catalog is served.
            case reloaded(etag: String)
            /// The files loaded and hold the catalog already served.
            case unchanged(etag: String)
            /// The files did not load, or would break what installed apps and backends rely on:
            /// the catalog served stays. Each problem is a line (`file:line:column: …` where one is known).
            case refused(problems: [String])
            /// This catalog was not loaded from files (it was given in code): nothing to read again.
            case notFromFiles
        }

        /// When it ran.
        public let at: Date
        /// What it came to.
        public let outcome: Outcome

        /// The word it is counted and logged by: `reloaded`, `unchanged`, `refused`, `not-from-files`.
        public var result: String {
            switch outcome {
            case .reloaded: "reloaded"
            case .unchanged: "unchanged"
            case .refused: "refused"
            case .notFromFiles: "not-from-files"
            }
        }
    }

    /// Reads the catalog again, given the one served now: the new catalog, or why it cannot be
    /// served (each problem one line).
    public typealias Loader = @Sendable (_ served: Catalog) -> Result<Catalog, LoadRefused>

    /// Why a loader did not give a catalog: each problem one line.
    public struct LoadRefused: Error, Sendable {
        /// The problems, one a line.
        public let problems: [String]

        /// Refused for `problems`.
        public init(problems: [String]) { self.problems = problems }
    }

    private struct State {
        var release: Release
        var lastReload: Reload?
    }

    private let state: Mutex<State>
    /// Held for a whole reload: two at once (a signal and the admin page) load one after the
    /// other, so the last file state read is the one served.
    private let reloading = Mutex<Void>(())
    private let loader: Loader?
    private let onReload: (@Sendable (Reload, Release) -> Void)?

    /// Serves `catalog`; `loader` reads it again on ``reload(at:)`` (without one, there is nothing
    /// to reload), and `onReload` hears of each reload, with the release served after it (to log
    /// and count it).
    public init(_ catalog: Catalog, loader: Loader? = nil, onReload: (@Sendable (Reload, Release) -> Void)? = nil) {
        state = Mutex(State(release: Release(catalog, since: Date())))
        self.loader = loader
        self.onReload = onReload
    }

    /// The catalog served now, with its bytes and entity tag.
    public var current: Release { state.withLock { $0.release } }

    /// The categories served now.
    public var catalog: Catalog { current.catalog }

    /// The last reload, if one ran.
    public var lastReload: Reload? { state.withLock { $0.lastReload } }

    /// Loads the catalog again and serves it if it loads; otherwise keeps serving the one it had.
    /// Returns (and keeps as ``lastReload``) what it came to.
    @discardableResult
    public func reload(at now: Date = Date()) -> Reload {
        let reload = reloading.withLock { _ in swap(at: now) }
        onReload?(reload, current)
        return reload
    }

    private func swap(at now: Date) -> Reload {
        let served = current
        let outcome: Reload.Outcome
        if let loader {
            switch loader(served.catalog) {
            case .success(let catalog):
                let release = Release(catalog, since: now)
                outcome = release.etag == served.etag ? .unchanged(etag: served.etag) : .reloaded(etag: release.etag)
                let reload = Reload(at: now, outcome: outcome)
                state.withLock { state in
                    if release.etag != served.etag { state.release = release }
                    state.lastReload = reload
                }
                return reload
            case .failure(let refused):
                outcome = .refused(problems: refused.problems)
            }
        } else {
            outcome = .notFromFiles
        }
        let reload = Reload(at: now, outcome: outcome)
        state.withLock { $0.lastReload = reload }
        return reload
    }
}
