/// GNS, multi-constellation fix data: like GGA, with one mode character per constellation.
public struct GNSSentence: Sendable, Hashable {
    public var timeOfDay: Int64?
    public var latitude: Double?
    public var longitude: Double?
    /// Digits after the point in the latitude minutes: how finely the position is written.
    public var positionResolution: Int = 0
    /// The best fix quality among the constellations' mode characters, `nil` when every one is `N`.
    public var quality: FixQuality?
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitude: Double?
    public var geoidSeparation: Double?

    public var isValid: Bool { quality != nil }

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GNSSentence {
        var best: FixQuality?
        for byte in fields.field(6) {
            guard let quality = FixQuality(modeIndicator: byte) else {
                if byte == UInt8(ascii: "N") || byte == UInt8(ascii: "V") { continue }
                throw fields.invalid(6, "mode")
            }
            if best == nil || quality.rank > best!.rank { best = quality }
        }
        var sentence = GNSSentence(
            timeOfDay: try fields.timeOfDay(1),
            latitude: try fields.coordinate(2, hemisphere: 3, isLatitude: true),
            longitude: try fields.coordinate(4, hemisphere: 5, isLatitude: false),
            quality: best,
            satellitesUsed: try fields.integer(7, "satellites used"),
            hdop: try fields.nonNegative(8, "HDOP"),
            altitude: try fields.decimal(9, "altitude"),
            geoidSeparation: try fields.decimal(10, "geoid separation")
        )
        sentence.positionResolution = fields.fractionDigits(2)
        return sentence
    }
}
