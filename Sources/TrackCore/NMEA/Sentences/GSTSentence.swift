/// GST, pseudorange error statistics: the receiver's own 1-sigma position errors.
public struct GSTSentence: Sendable, Hashable {
    public var timeOfDay: Int64?
    /// RMS of the pseudorange residuals, metres.
    public var rangeRMS: Double?
    /// 1-sigma latitude error, metres.
    public var latitudeSigma: Double?
    /// 1-sigma longitude error, metres.
    public var longitudeSigma: Double?
    /// 1-sigma altitude error, metres.
    public var altitudeSigma: Double?

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GSTSentence {
        GSTSentence(
            timeOfDay: try fields.timeOfDay(1),
            rangeRMS: try fields.nonNegative(2, "range RMS"),
            latitudeSigma: try fields.nonNegative(6, "latitude error"),
            longitudeSigma: try fields.nonNegative(7, "longitude error"),
            altitudeSigma: try fields.nonNegative(8, "altitude error")
        )
    }
}
