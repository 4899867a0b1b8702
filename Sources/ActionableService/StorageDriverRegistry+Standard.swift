import ActionablePostgres
import ActionableSQLite
public import ActionableStore

extension StorageDriverRegistry {
    /// The drivers `actionable serve` knows: `sqlite:PATH` (GRDB), `postgres://` and
    /// `postgresql://` (postgres-nio), and `memory:` (nothing survives the process; for tests and
    /// trials). A new driver is one more line here.
    public static var standard: StorageDriverRegistry {
        var registry = StorageDriverRegistry()
        registry.register(scheme: "sqlite", "sqlite:PATH") { url, _ in try await SQLiteActionStore(path: url.afterScheme) }
        for scheme in ["postgres", "postgresql"] {
            registry.register(
                scheme: scheme, "postgres://user:password@host:port/database",
                validate: { try PostgresActionStore.validate(url: $0.text) },
                open: { url, logger in try await PostgresActionStore(url: url.text, logger: logger) })
        }
        registry.register(scheme: "memory", "memory:, nothing kept") { _, _ in InMemoryActionStore() }
        return registry
    }
}
