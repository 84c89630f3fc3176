/// GLL, geographic position: latitude, longitude, time and validity.
public struct GLLSentence: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    /// Digits after the point in the latitude minutes: how finely the position is written.
    public var positionResolution: Int = 0
    public var timeOfDay: Int64?
    /// Status `A` and a mode indicator other than `N`.
    public var isValid: Bool
    public var modeIndicator: UInt8?

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GLLSentence {
        let status = fields.character(6)
        guard status == nil || status == UInt8(ascii: "A") || status == UInt8(ascii: "V") else {
            throw fields.invalid(6, "status")
        }
        let mode = fields.character(7)
        var sentence = GLLSentence(
            latitude: try fields.coordinate(1, hemisphere: 2, isLatitude: true),
            longitude: try fields.coordinate(3, hemisphere: 4, isLatitude: false),
            timeOfDay: try fields.timeOfDay(5),
            isValid: status == UInt8(ascii: "A") && mode != UInt8(ascii: "N"),
            modeIndicator: mode
        )
        sentence.positionResolution = fields.fractionDigits(1)
        return sentence
    }
}
