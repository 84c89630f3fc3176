/// One result row, its values copied out of the statement: read by column name (case-insensitive) or index.
public struct Row: Sendable {
    /// The statement's column names, in order.
    public let columnNames: [String]
    /// The values, in column order.
    public let values: [DatabaseValue]

    public init(columnNames: [String], values: [DatabaseValue]) {
        self.columnNames = columnNames
        self.values = values
    }

    /// The value of the column `name`, converted. A missing column, `NULL` or a value that does not convert (a log
    /// changed by hand, a file from another program) is an error (`SQLITE_MISMATCH`) that names the column and the
    /// value. Read an optional for a column that may be `NULL`.
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        get throws { try Self.converted(self[databaseValue: name], column: "'\(name)'") }
    }

    /// The value of the column `name`, converted; `nil` for `NULL`, an error for a missing column or a value of
    /// another type.
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        get throws {
            let value = try self[databaseValue: name]
            return value.isNull ? nil : try Self.converted(value, column: "'\(name)'") as Value
        }
    }

    /// The value at column `index`, converted (as the subscript by name).
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        get throws { try Self.converted(values[index], column: "\(index)") }
    }

    /// The value at column `index`, converted; `nil` for `NULL`.
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        get throws { values[index].isNull ? nil : try Self.converted(values[index], column: "\(index)") as Value }
    }

    /// The raw value of the column `name`; an error when the row has no such column.
    public subscript(databaseValue name: String) -> DatabaseValue {
        get throws {
            guard let index = index(of: name) else {
                throw DatabaseError(resultCode: .SQLITE_MISMATCH,
                                    message: "no column '\(name)' in a row of \(columnNames.joined(separator: ", "))")
            }
            return values[index]
        }
    }

    /// `value` as a `Value`, or the error that names `column`, the value and the type it does not read as.
    private static func converted<Value: DatabaseValueConvertible>(_ value: DatabaseValue, column: String) throws -> Value {
        if let converted = Value.fromDatabaseValue(value) { return converted }
        let shown = switch value {
        case .null: "NULL"
        case .integer(let number): "the integer \(number)"
        case .real(let number): "the number \(number)"
        case .text(let text): "the text '\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'"
        case .blob(let bytes): "a blob of \(bytes.count) bytes"
        }
        throw DatabaseError(resultCode: .SQLITE_MISMATCH,
                            message: "column \(column) holds \(shown), which does not read as \(Value.self)")
    }

    /// Whether the row has a column `name`.
    public func hasColumn(_ name: String) -> Bool {
        index(of: name) != nil
    }

    private func index(of name: String) -> Int? {
        if let exact = columnNames.firstIndex(of: name) { return exact }
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }
}
