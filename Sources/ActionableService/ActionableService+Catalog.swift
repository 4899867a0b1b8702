import ActionableCore
public import ActionableHTTP
import ActionableLint
import CoreMetrics
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
import UnixSignals

extension ActionableService {
    /// Reads the category files again and serves them if they load: linted, and without a change
    /// `actionable diff` calls breaking against the catalog served (a category or action removed
    /// without being retired first, a payload key made required …), which installed apps and
    /// running backends could not follow. Otherwise the catalog served stays, and every problem
    /// is logged, counted and shown on `/admin`. `SIGHUP` and the admin page's Reload button do
    /// this.
    ///
    /// `GET /v1/categories` serves the new catalog (and its `ETag`) from the next request on; a
    /// tap already on its way for a category or action the new files retire is accepted, as
    /// retired ones are.
    @discardableResult
    public func reloadCategories() -> LiveCatalog.Reload { live.reload() }

    /// Reloads the categories on each `SIGHUP` until the service shuts down. The signal is
    /// trapped for the service's life: without this, `SIGHUP` would end the process.
    func reloadOnHangUp() async {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            logger.info("SIGHUP: reading the category files again", metadata: ["directory": "\(configuration.categories)"])
            reloadCategories()
        }
    }

    /// Loads the catalog from `directory`, refusing lint errors and breaking changes against the
    /// files served (`served` at first, then each set it loaded).
    static func catalogLoader(directory: String, served: [CategoryFile]) -> LiveCatalog.Loader {
        let files = Mutex(served)
        return { _ in
            let loaded: [CategoryFile]
            do throws(CatalogRefused) {
                loaded = try Linter().checkedFiles(at: directory)
            } catch {
                let problems = error.errors.isEmpty ? [error.description] : error.errors.map(\.description)
                return .failure(LiveCatalog.LoadRefused(problems: problems))
            }
            let breaking = CatalogDiff().diff(old: files.withLock { $0 }, new: loaded).diagnostics.filter { $0.severity == .error }
            guard breaking.isEmpty else {
                let advice =
                    "\(breaking.count) change(s) would break installed apps or running backends: retire a category or action "
                    + "(retired: true) before removing it, or restart the server to take a breaking change"
                return .failure(LiveCatalog.LoadRefused(problems: breaking.map(\.description) + [advice]))
            }
            files.withLock { $0 = loaded }
            return .success(Catalog(loaded.compactMap(\.category)))
        }
    }

    /// Logs each reload (every problem of a refused one, one line each) and counts it in
    /// `actionable_catalog_reloads_total{result}`.
    static func reloadObserver(
        directory: String, factory: PrometheusMetricsFactory, logger: Logger
    ) -> @Sendable (LiveCatalog.Reload, LiveCatalog.Release) -> Void {
        { reload, served in
            Counter(label: "actionable_catalog_reloads_total", dimensions: [("result", reload.result)], factory: factory).increment()
            let metadata: Logger.Metadata = ["directory": "\(directory)", "etag": "\(served.etag)"]
            switch reload.outcome {
            case .reloaded:
                logger.notice("categories reloaded: \(served.catalog.categories.count) categories served", metadata: metadata)
            case .unchanged:
                logger.info("categories reloaded: unchanged", metadata: metadata)
            case .refused(let problems):
                logger.error(
                    "categories not reloaded: the catalog served before stays (\(problems.count) problem(s) below)", metadata: metadata)
                for problem in problems { logger.error("\(problem)", metadata: metadata) }
            case .notFromFiles:
                logger.warning("categories not reloaded: this service was given its catalog in code, not read from files")
            }
        }
    }
}
