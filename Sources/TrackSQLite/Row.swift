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

    /// The value of the column `name`, converted; a crash (a programming error) for a missing column, `NULL` or a
    /// value that does not convert. Read an optional for a column that may be `NULL`.
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        let value = self[databaseValue: name]
        guard let converted = Value.fromDatabaseValue(value) else {
            fatalError("could not read \(value) of column '\(name)' as \(Value.self)")
        }
        return converted
    }

    /// The value of the column `name`, converted; `nil` for `NULL`, a crash for a missing column or a value of
    /// another type.
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value? {
        let value = self[databaseValue: name]
        if value.isNull { return nil }
        guard let converted = Value.fromDatabaseValue(value) else {
            fatalError("could not read \(value) of column '\(name)' as \(Value.self)")
        }
        return converted
    }

    /// The value at column `index`, converted (as the subscript by name).
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        guard let converted = Value.fromDatabaseValue(values[index]) else {
            fatalError("could not read \(values[index]) of column \(index) as \(Value.self)")
        }
        return converted
    }

    /// The value at column `index`, converted; `nil` for `NULL`.
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value? {
        if values[index].isNull { return nil }
        guard let converted = Value.fromDatabaseValue(values[index]) else {
            fatalError("could not read \(values[index]) of column \(index) as \(Value.self)")
        }
        return converted
    }

    /// The raw value of the column `name`.
    public subscript(databaseValue name: String) -> DatabaseValue {
        guard let index = index(of: name) else {
            fatalError("no column '\(name)' in a row of \(columnNames)")
        }
        return values[index]
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
