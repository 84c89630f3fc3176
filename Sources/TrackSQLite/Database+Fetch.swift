extension Row {
    /// Every row of `sql`.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Row] {
        let statement = try db.cachedStatement(sql: sql)
        try statement.bind(arguments.values)
        defer { statement.reset() }
        var rows: [Row] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The first row of `sql`, `nil` when there is none.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Row? {
        let statement = try db.cachedStatement(sql: sql)
        try statement.bind(arguments.values)
        defer { statement.reset() }
        return try statement.step() ? statement.row() : nil
    }

    /// The rows of `sql`, one at a time (a statement of its own, so that other queries may run meanwhile).
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> RowCursor {
        try RowCursor(statement: db.makeStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible {
    /// The first column of every row of `sql`, converted; `NULL`s and values that do not convert are left out.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap { row in
            Self.fromDatabaseValue(row.values[0])
        }
    }

    /// The first column of the first row of `sql`, converted; `nil` when there is no row or it is `NULL`.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        return Self.fromDatabaseValue(row.values[0])
    }
}
