/// How the engine judged the fixes it was given.
public struct EngineStatistics: Sendable, Hashable, Codable {
    /// Fixes used with their position.
    public var accepted = 0
    /// Fixes whose position was not trusted but whose speed was used.
    public var speedOnly = 0
    /// Fixes not used at all.
    public var rejected = 0
    public var rejections: [FixRejection: Int] = [:]
    public var positionRejections: [PositionRejection: Int] = [:]
    public var speedRejections: [SpeedRejection: Int] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey {
        case accepted, rejected
        case speedOnly = "speed_only"
        case rejections = "rejected_by_reason"
        case positionRejections = "position_not_trusted"
        case speedRejections = "speed_not_used"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accepted = try container.decode(Int.self, forKey: .accepted)
        speedOnly = try container.decode(Int.self, forKey: .speedOnly)
        rejected = try container.decode(Int.self, forKey: .rejected)
        rejections = EngineStatistics.keyed(try container.decode([String: Int].self, forKey: .rejections))
        positionRejections = EngineStatistics.keyed(try container.decode([String: Int].self, forKey: .positionRejections))
        speedRejections = EngineStatistics.keyed(try container.decode([String: Int].self, forKey: .speedRejections))
    }

    /// Reasons as JSON object keys (`{"no_fix": 3}`), not as alternating arrays.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(speedOnly, forKey: .speedOnly)
        try container.encode(rejected, forKey: .rejected)
        try container.encode(EngineStatistics.named(rejections), forKey: .rejections)
        try container.encode(EngineStatistics.named(positionRejections), forKey: .positionRejections)
        try container.encode(EngineStatistics.named(speedRejections), forKey: .speedRejections)
    }

    private static func named<Key: RawRepresentable>(_ counts: [Key: Int]) -> [String: Int] where Key.RawValue == String {
        var result: [String: Int] = [:]
        for (key, count) in counts { result[key.rawValue] = count }
        return result
    }

    private static func keyed<Key: RawRepresentable & Hashable>(_ counts: [String: Int]) -> [Key: Int] where Key.RawValue == String {
        var result: [Key: Int] = [:]
        for (name, count) in counts { if let key = Key(rawValue: name) { result[key] = count } }
        return result
    }

    mutating func count(_ verdict: FixVerdict) {
        if let rejection = verdict.rejection {
            rejected += 1
            rejections[rejection, default: 0] += 1
            return
        }
        if let rejection = verdict.positionRejection {
            speedOnly += 1
            positionRejections[rejection, default: 0] += 1
        } else {
            accepted += 1
        }
        if let rejection = verdict.speedRejection { speedRejections[rejection, default: 0] += 1 }
    }
}
