import CSQLite

/// A prepared statement of one connection: bound, stepped and reset; finalized when released.
public final class Statement {
    let handle: OpaquePointer
    /// The statement's SQL.
    public let sql: String
    unowned let database: Database
    /// The names of the result columns.
    public let columnNames: [String]

    init(handle: OpaquePointer, sql: String, database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
        columnNames = (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Runs the statement to its end with `arguments`, discarding any rows.
    public func execute(arguments: StatementArguments = []) throws {
        try bind(arguments.values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Resets the statement and binds `values` to its parameters (all of them, in order).
    func bind(_ values: some Collection<DatabaseValue>) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard values.count == parameterCount else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "\(values.count) arguments for \(parameterCount) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
            case .real(let real): sqlite3_bind_double(handle, index, real)
            case .text(let text):
                text.utf8CString.withUnsafeBufferPointer { buffer in
                    trackd_sqlite3_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1))
                }
            case .blob(let bytes):
                bytes.withUnsafeBytes { buffer in
                    // A zero-length blob is a blob, not NULL: give SQLite a non-null pointer.
                    trackd_sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                             Int32(buffer.count))
                }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Resets the statement, ending its read (a statement left stepping keeps its read transaction open).
    func reset() {
        sqlite3_reset(handle)
    }

    /// Steps once: `true` with a row ready, `false` at the end.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code, sql: sql)
        }
    }

    /// The current row's values.
    func row() -> Row {
        Row(columnNames: columnNames, values: (0..<Int32(columnNames.count)).map(value(at:)))
    }

    private func value(at column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
