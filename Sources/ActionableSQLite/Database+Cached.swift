import GRDB

/// The queue's hot statements, prepared once per connection and decoded in place.
///
/// `Row.fetchAll(db, sql:)` and `db.execute(sql:)` compile their SQL on every call, and GRDB's
/// statement authorizer then walks every column the statement reads (a fifth of the server's CPU
/// while it delivered, measured with `perf`); a fetched array copies each row, whose by-name reads
/// scan the column names, lower-casing each. These helpers use the connection's statement cache
/// and decode each row while the statement is on it, where a by-name read is one dictionary hit.
extension Database {
    /// Every row of the cached statement `sql`, each decoded by `decode` in place.
    func decodeAll<T>(_ sql: String, _ arguments: StatementArguments = StatementArguments(), _ decode: (Row) throws -> T) throws -> [T] {
        let rows = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments)
        var decoded: [T] = []
        while let row = try rows.next() { decoded.append(try decode(row)) }
        return decoded
    }

    /// The first row of the cached statement `sql`, decoded by `decode` in place; `nil` for none.
    func decodeOne<T>(_ sql: String, _ arguments: StatementArguments = StatementArguments(), _ decode: (Row) throws -> T) throws -> T? {
        let rows = try Row.fetchCursor(cachedStatement(sql: sql), arguments: arguments)
        guard let row = try rows.next() else { return nil }
        let decoded = try decode(row)
        while try rows.next() != nil {}  // a RETURNING statement runs to its end
        return decoded
    }

    /// Runs the cached statement `sql`.
    func run(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
