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
