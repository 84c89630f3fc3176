/// Whether a rule classifies trips: `active` does, `paused` does not for now, `declined` is a suggestion the driver
/// said never to offer again (kept so that it is not offered again).
public enum RuleState: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case active
    case paused
    case declined

    public var description: String { rawValue }
}
