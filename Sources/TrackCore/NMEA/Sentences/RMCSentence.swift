/// RMC, recommended minimum data: time, date, validity, position, speed and course over ground.
public struct RMCSentence: Sendable, Hashable {
    /// UTC time of day, nanoseconds since midnight.
    public var timeOfDay: Int64?
    /// Status `A` (valid) rather than `V` (warning), and a mode indicator other than `N`.
    public var isValid: Bool
    public var latitude: Double?
    public var longitude: Double?
    /// Digits after the point in the latitude minutes: how finely the position is written.
    public var positionResolution: Int = 0
    /// Speed over ground, knots.
    public var speedKnots: Double?
    /// Course over ground, degrees true.
    public var course: Double?
    public var date: CivilDate?
    /// NMEA 2.3 mode indicator (`A`, `D`, `E`, `F`, `R`, `M`, `S`, `N`, `P`), when present.
    public var modeIndicator: UInt8?

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> RMCSentence {
        let status = fields.character(2)
        guard status == nil || status == UInt8(ascii: "A") || status == UInt8(ascii: "V") else {
            throw fields.invalid(2, "status")
        }
        let mode = fields.character(12)
        var sentence = RMCSentence(
            timeOfDay: try fields.timeOfDay(1),
            isValid: status == UInt8(ascii: "A") && mode != UInt8(ascii: "N"),
            latitude: try fields.coordinate(3, hemisphere: 4, isLatitude: true),
            longitude: try fields.coordinate(5, hemisphere: 6, isLatitude: false),
            speedKnots: try fields.nonNegative(7, "speed over ground"),
            course: try fields.decimal(8, "course over ground"),
            date: try fields.dateDDMMYY(9),
            modeIndicator: mode
        )
        sentence.positionResolution = fields.fractionDigits(3)
        return sentence
    }
}
