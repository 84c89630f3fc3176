/// Which trips a listing or an export takes by kind.
public enum KindFilter: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case business
    case `private`
    case all

    /// Whether a trip of `kind` passes.
    public func admits(_ kind: TripKind) -> Bool {
        switch self {
        case .all: true
        case .business: kind == .business
        case .private: kind == .private
        }
    }

    public var description: String { rawValue }
}
