/// What differs between the SQL databases the drivers speak: column types and how a statement
/// names its parameters. Everything else about the schema and the statements is shared
/// (`ActionTable`).
package struct SQLDialect: Sendable {
    /// The type of a floating-point column (`DOUBLE`, `DOUBLE PRECISION`).
    package var doubleType: String
    /// The text of the `index`th parameter (1-based) of a statement: `?1` or `$1`.
    package var parameter: @Sendable (Int) -> String
    /// A column that finds a row without an index lookup (SQLite's `rowid`), for batched
    /// deletes; `nil`: the primary key.
    package var rowIdentifier: String?

    /// A dialect with `doubleType` columns and `parameter` placeholders.
    package init(doubleType: String, rowIdentifier: String? = nil, parameter: @escaping @Sendable (Int) -> String) {
        self.doubleType = doubleType
        self.rowIdentifier = rowIdentifier
        self.parameter = parameter
    }

    /// SQLite: `DOUBLE` columns, `?1`, `?2`… parameters (numbered, so one may be used twice),
    /// rows found by `rowid`.
    package static let sqlite = SQLDialect(doubleType: "DOUBLE", rowIdentifier: "rowid") { "?\($0)" }

    /// PostgreSQL: `DOUBLE PRECISION` columns, `$1`, `$2`… parameters.
    package static let postgres = SQLDialect(doubleType: "DOUBLE PRECISION") { "$\($0)" }
}
