/// GGA, fix data: time, position, fix quality, satellites used, HDOP and altitude.
public struct GGASentence: Sendable, Hashable {
    public var timeOfDay: Int64?
    public var latitude: Double?
    public var longitude: Double?
    /// Digits after the point in the latitude minutes: how finely the position is written.
    public var positionResolution: Int = 0
    /// Fix quality: 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, 7 manual, 8 simulated.
    public var quality: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Altitude above mean sea level, metres.
    public var altitude: Double?
    /// Geoid height above the WGS-84 ellipsoid, metres.
    public var geoidSeparation: Double?

    /// Whether the quality field reports a position.
    public var isValid: Bool { (quality ?? 0) > 0 }

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GGASentence {
        let quality = try fields.integer(6, "fix quality")
        if let quality, !(0...9).contains(quality) { throw fields.invalid(6, "fix quality") }
        var sentence = GGASentence(
            timeOfDay: try fields.timeOfDay(1),
            latitude: try fields.coordinate(2, hemisphere: 3, isLatitude: true),
            longitude: try fields.coordinate(4, hemisphere: 5, isLatitude: false),
            quality: quality,
            satellitesUsed: try fields.integer(7, "satellites used"),
            hdop: try fields.nonNegative(8, "HDOP"),
            altitude: try fields.decimal(9, "altitude"),
            geoidSeparation: try fields.decimal(11, "geoid separation")
        )
        sentence.positionResolution = fields.fractionDigits(2)
        return sentence
    }
}
