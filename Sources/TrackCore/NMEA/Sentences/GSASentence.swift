/// GSA, DOP and active satellites: the receiver's own word on 2D or 3D.
public struct GSASentence: Sendable, Hashable {
    /// 1 no fix, 2 2D, 3 3D.
    public var fixMode: Int?
    /// Satellite IDs listed as used.
    public var satellitesUsed: Int
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GSASentence {
        let mode = try fields.integer(2, "fix mode")
        if let mode, !(1...3).contains(mode) { throw fields.invalid(2, "fix mode") }
        var used = 0
        for index in 3...14 where !fields.isEmpty(index) { used += 1 }
        return GSASentence(
            fixMode: mode,
            satellitesUsed: used,
            pdop: try fields.nonNegative(15, "PDOP"),
            hdop: try fields.nonNegative(16, "HDOP"),
            vdop: try fields.nonNegative(17, "VDOP")
        )
    }
}
