/// A failure SQLite reported: its result code, its message and the statement it ran.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The extended result code.
    public let resultCode: ResultCode
    /// SQLite's message (`sqlite3_errmsg`), when it gave one.
    public let message: String?
    /// The SQL of the failing statement, when there was one.
    public let sql: String?

    public init(resultCode: ResultCode, message: String? = nil, sql: String? = nil) {
        self.resultCode = resultCode
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
