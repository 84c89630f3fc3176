/// A Swift value SQLite can store and give back: bound as a statement argument, read from a row's column.
public protocol DatabaseValueConvertible: Sendable {
    /// The value as SQLite stores it.
    var databaseValue: DatabaseValue { get }
    /// The value from what SQLite gave back; `nil` when it does not convert (`NULL`, text for a number).
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? {
        switch value {
        case .integer(let integer): integer
        case .real(let real): Int64(exactly: real)
        default: nil
        }
    }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .real(let real): real
        default: nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? {
        switch value {
        case .integer(let integer): integer != 0
        case .real(let real): real != 0
        default: nil
        }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? {
        switch value {
        case .text(let text): text
        case .blob(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? {
        switch value {
        case .blob(let bytes): bytes
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension DatabaseValueConvertible where Self: RawRepresentable, RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
