/// Where a fix's horizontal error estimate (`eph`) came from.
public enum HorizontalErrorSource: String, Sendable, Hashable {
    /// The receiver's own error statistics (NMEA GST).
    case receiver
    /// gpsd's `eph`: the receiver's figure where gpsd has one, otherwise gpsd's own DOP × 19 m model — which of
    /// the two libgps does not say.
    case gpsd
    /// Modelled from HDOP: a guess from satellite geometry, not a measurement (see `HorizontalErrorModel`).
    case hdopModel
}
