/// Where a fix's horizontal error estimate (`eph`) came from.
public enum HorizontalErrorSource: String, Sendable, Hashable {
    /// The receiver's own error statistics (NMEA GST, or gpsd's `eph`).
    case receiver
    /// Modelled from HDOP: a guess from satellite geometry, not a measurement (see `HorizontalErrorModel`).
    case hdopModel
}
