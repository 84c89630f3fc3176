/// What an erasure takes away.
public enum ErasureTarget: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Where trips went: their track points and start and end positions (the entries stay).
    case routes
    /// Whatever names a person in the profile and its history: the driver, the plate, the company.
    case profile
    /// Everything: a new, empty log, as after installation.
    case all

    public var description: String { rawValue }
}
