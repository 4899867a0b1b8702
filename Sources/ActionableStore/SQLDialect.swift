/// What differs between the SQL databases the drivers speak: column types and how a statement
/// names its parameters. Everything else about the schema and the statements is shared
/// (``ActionTable``).
public struct SQLDialect: Sendable {
    /// The type of a floating-point column (`DOUBLE`, `DOUBLE PRECISION`).
    public var doubleType: String
    /// The text of the `index`th parameter (1-based) of a statement: `?1` or `$1`.
    public var parameter: @Sendable (Int) -> String
    /// A column that finds a row without an index lookup (SQLite's `rowid`), for batched
    /// deletes; `nil`: the primary key.
    public var rowIdentifier: String?

    /// A dialect with `doubleType` columns and `parameter` placeholders.
    public init(doubleType: String, rowIdentifier: String? = nil, parameter: @escaping @Sendable (Int) -> String) {
        self.doubleType = doubleType
        self.rowIdentifier = rowIdentifier
        self.parameter = parameter
    }

    /// SQLite: `DOUBLE` columns, `?1`, `?2`… parameters (numbered, so one may be used twice),
    /// rows found by `rowid`.
    public static let sqlite = SQLDialect(doubleType: "DOUBLE", rowIdentifier: "rowid") { "?\($0)" }

    /// PostgreSQL: `DOUBLE PRECISION` columns, `$1`, `$2`… parameters.
    public static let postgres = SQLDialect(doubleType: "DOUBLE PRECISION") { "$\($0)" }
}
