import CSQLite

/// The rows of a statement, one at a time, without reading them all into memory. Valid only inside the database
/// access that made it.
public final class RowCursor {
    private let statement: Statement
    private var finished = false

    init(statement: Statement, arguments: StatementArguments) throws {
        self.statement = statement
        try statement.bind(arguments.values)
    }

    deinit {
        sqlite3_reset(statement.handle)
    }

    /// The next row, `nil` at the end.
    public func next() throws -> Row? {
        guard !finished else { return nil }
        if try statement.step() { return statement.row() }
        finished = true
        sqlite3_reset(statement.handle)
        return nil
    }
}
