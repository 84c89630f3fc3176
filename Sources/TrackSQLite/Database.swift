import CSQLite

/// One connection to an SQLite file. Not thread-safe: a `DatabaseQueue` or `DatabasePool` hands it to one body at
/// a time.
public final class Database {
    /// The connection's handle, for what this layer does not wrap (`sqlite3_system_errno`).
    public let sqliteConnection: OpaquePointer
    /// The file's path.
    public let path: String
    private var cache: [String: Statement] = [:]

    /// Opens the file at `path` (created if needed unless read-only) and applies `configuration`.
    init(path: String, configuration: Configuration) throws {
        var handle: OpaquePointer?
        var flags = (configuration.readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX
        var name = path
        if configuration.immutable {
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            name = "file:" + Self.uriEscaped(path) + "?immutable=1"
        }
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard let handle else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "out of memory") }
        guard code == SQLITE_OK else {
            let error = DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(handle)),
                                      message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        sqliteConnection = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        if let busyTimeout = configuration.busyTimeout {
            sqlite3_busy_timeout(handle, Int32((busyTimeout * 1000).rounded()))
        }
        try execute(sql: "PRAGMA foreign_keys = ON")
        try configuration.prepareDatabase?(self)
    }

    /// `path` with the characters an SQLite URI filename gives a meaning to (`%`, `?`, `#`) percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    private var isClosed = false

    deinit {
        close()
    }

    /// Closes the connection (a WAL file's last connection checkpoints and removes the WAL); any later use fails.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        cache.removeAll()  // Each statement is finalized before the connection closes.
        sqlite3_close_v2(sqliteConnection)
    }

    /// Runs `sql`, one statement or several separated by `;`, binding `arguments` to their parameters in order.
    public func execute(sql: String, arguments: StatementArguments = []) throws {
        var remaining = arguments.values[...]
        try sql.utf8CString.withUnsafeBufferPointer { buffer in
            var start = buffer.baseAddress!
            while start.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(sqliteConnection, start, -1, &handle, &tail)
                guard code == SQLITE_OK else { throw error(code, sql: sql) }
                guard let tail else { break }
                defer { start = tail }
                guard let handle else { continue }  // Whitespace or a comment.
                let statement = Statement(handle: handle, sql: sql, database: self)
                let count = statement.parameterCount
                guard remaining.count >= count else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "too few arguments", sql: sql)
                }
                try statement.execute(arguments: StatementArguments(values: remaining.prefix(count)))
                remaining = remaining.dropFirst(count)
            }
        }
        guard remaining.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(remaining.count) arguments too many", sql: sql)
        }
    }

    /// A statement of `sql` (one statement), prepared once per connection and reused.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = cache[sql] { return statement }
        let statement = try makeStatement(sql: sql)
        cache[sql] = statement
        return statement
    }

    /// A new statement of `sql` (one statement).
    public func makeStatement(sql: String) throws -> Statement {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v2(sqliteConnection, sql, -1, &handle, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
        guard let handle else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no statement", sql: sql) }
        return Statement(handle: handle, sql: sql, database: self)
    }

    /// The row id of the last row inserted.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqliteConnection) }

    /// The rows changed by the last statement.
    public var changesCount: Int { Int(sqlite3_changes(sqliteConnection)) }

    /// Whether a transaction is open.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(sqliteConnection) == 0 }

    /// Frees what the connection's page cache holds and no transaction uses (`sqlite3_db_release_memory`).
    public func releaseMemory() {
        sqlite3_db_release_memory(sqliteConnection)
    }

    /// Whether the schema has a table `name`.
    public func tableExists(_ name: String) throws -> Bool {
        try Int.fetchOne(self, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                         arguments: [name]) != nil
    }

    /// How a transaction begins.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED", immediate = "IMMEDIATE", exclusive = "EXCLUSIVE"
    }

    /// What a transaction's body decides.
    public enum TransactionCompletion: Sendable {
        case commit, rollback
    }

    /// Runs `body` in a transaction, committed or rolled back as it says; rolled back when it throws.
    public func inTransaction(_ kind: TransactionKind = .immediate,
                              _ body: () throws -> TransactionCompletion) throws {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try execute(sql: "COMMIT TRANSACTION")
            } catch {
                rollbackIfNeeded()
                throw error
            }
        case .rollback:
            rollbackIfNeeded()
        }
    }

    /// Rolls back the open transaction, if SQLite has not already (it does after some errors).
    private func rollbackIfNeeded() {
        if isInsideTransaction { _ = sqlite3_exec(sqliteConnection, "ROLLBACK TRANSACTION", nil, nil, nil) }
    }

    /// The error of a failed call, with SQLite's message.
    func error(_ code: Int32, sql: String?) -> DatabaseError {
        let extended = sqlite3_extended_errcode(sqliteConnection)
        // The connection's last error is this call's unless SQLite reported another code (then trust the call's).
        let resultCode = extended & 0xFF == code & 0xFF ? extended : code
        return DatabaseError(resultCode: ResultCode(rawValue: resultCode),
                             message: String(cString: sqlite3_errmsg(sqliteConnection)), sql: sql)
    }
}

extension StatementArguments {
    init(values: some Sequence<DatabaseValue>) {
        self.init([])
        self.values = Array(values)
    }
}
