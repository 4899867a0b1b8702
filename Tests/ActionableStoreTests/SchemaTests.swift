import ActionableStore
import Testing

/// The schema's one list of migrations, which every SQL driver applies.
struct SchemaTests {
    /// Versions 1, 2, 3… with no gap and no repeat, each named once: a database records them by
    /// number (PostgreSQL) or by `vN: name` (SQLite), so a renumbered or renamed step would run
    /// again on a database that has it.
    @Test func migrationsAreNumberedInOrderAndNamedOnce() {
        let migrations = Schema.migrations
        #expect(migrations.map(\.version) == Array(1...migrations.count))
        #expect(Set(migrations.map(\.name)).count == migrations.count)
        // The names databases already carry (SQLite's migrator identifies a step by them).
        #expect(migrations.first?.name == "action responses")
        #expect(migrations.last.map { "v\($0.version): \($0.name)" } == "v17: activity by series")
    }

    /// Every step has statements in both dialects, and they differ only where the dialects do.
    @Test func everyMigrationHasStatementsForBothDialects() {
        for migration in Schema.migrations {
            let sqlite = migration.statements(.sqlite)
            let postgres = migration.statements(.postgres)
            #expect(!sqlite.isEmpty && sqlite.count == postgres.count, "v\(migration.version)")
        }
    }
}
