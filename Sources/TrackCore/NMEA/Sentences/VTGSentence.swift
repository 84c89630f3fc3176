/// VTG, course and speed over ground.
public struct VTGSentence: Sendable, Hashable {
    /// Course over ground, degrees true.
    public var course: Double?
    /// Speed over ground, metres per second (from the knots field, else the km/h field).
    public var speed: Double?
    /// Whether the mode indicator (NMEA 2.3) does not say `N` (not valid).
    public var isValid: Bool

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> VTGSentence {
        if fields.character(2) == UInt8(ascii: "T") || fields.count > 5 {
            // $--VTG,course,T,course,M,knots,N,kmh,K[,mode]
            let knots = try fields.nonNegative(5, "speed, knots")
            let kmh = try fields.nonNegative(7, "speed, km/h")
            return VTGSentence(
                course: try fields.decimal(1, "course"),
                speed: knots.map { $0 * NMEAUnits.metresPerSecondPerKnot } ?? kmh.map { $0 / 3.6 },
                isValid: fields.character(9) != UInt8(ascii: "N")
            )
        }
        // Old style, before NMEA 2.0: $--VTG,course true,course magnetic,knots,km/h
        let knots = try fields.nonNegative(3, "speed, knots")
        let kmh = try fields.nonNegative(4, "speed, km/h")
        return VTGSentence(
            course: try fields.decimal(1, "course"),
            speed: knots.map { $0 * NMEAUnits.metresPerSecondPerKnot } ?? kmh.map { $0 / 3.6 },
            isValid: true
        )
    }
}
