/// The values bound to a statement's `?` parameters, in order; `nil` binds `NULL`.
public struct StatementArguments: Sendable, ExpressibleByArrayLiteral {
    /// The values, in parameter order.
    public var values: [DatabaseValue]

    public init(_ values: [(any DatabaseValueConvertible)?]) {
        self.values = values.map { $0?.databaseValue ?? .null }
    }

    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        self.init(elements)
    }

    /// Appends the arguments of `right`.
    public static func += (left: inout StatementArguments, right: StatementArguments) {
        left.values += right.values
    }
}
