/// One position epoch, with gpsd's TPV meaning: everything a receiver said about one instant.
///
/// Optional values are `nil` when the receiver did not report them; nothing here is derived from
/// earlier positions (speed and course are the receiver's own Doppler figures).
public struct Fix: Sendable, Hashable {
    /// The instant of the fix (GPS time); `nil` while the receiver has not yet told the date.
    public var time: UTCTime?
    /// Fix dimension (gpsd `mode`).
    public var mode: FixMode
    /// How the position was obtained (gpsd `status`).
    public var quality: FixQuality
    /// Degrees north, WGS-84; present when `mode >= .twoD`.
    public var latitude: Double?
    /// Degrees east, WGS-84; present when `mode >= .twoD`.
    public var longitude: Double?
    /// Metres above mean sea level (gpsd `altMSL`, TPV `alt`).
    public var altitudeMSL: Double?
    /// Height of the geoid above the WGS-84 ellipsoid, metres (gpsd `geoidSep`).
    public var geoidSeparation: Double?
    /// Speed over ground reported by the receiver, m/s.
    public var speed: Double?
    /// Course over ground reported by the receiver, degrees from true north.
    public var track: Double?
    /// Horizontal error estimate, metres at about 95 % (gpsd `eph`); see `HorizontalErrorModel`.
    public var eph: Double?
    /// Whether `eph` was measured by the receiver or modelled from HDOP.
    public var ephSource: HorizontalErrorSource?
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Position dilution of precision.
    public var pdop: Double?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Satellites in view, all constellations (from GSV).
    public var satellitesInView: Int?

    public init(
        time: UTCTime? = nil, mode: FixMode = .notSeen, quality: FixQuality = .unknown,
        latitude: Double? = nil, longitude: Double? = nil, altitudeMSL: Double? = nil,
        geoidSeparation: Double? = nil, speed: Double? = nil, track: Double? = nil,
        eph: Double? = nil, ephSource: HorizontalErrorSource? = nil,
        hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil, satellitesUsed: Int? = nil,
        satellitesInView: Int? = nil
    ) {
        self.time = time
        self.mode = mode
        self.quality = quality
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.geoidSeparation = geoidSeparation
        self.speed = speed
        self.track = track
        self.eph = eph
        self.ephSource = ephSource
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
    }

    /// Height above the WGS-84 ellipsoid, when both MSL altitude and geoid separation are known (gpsd `altHAE`).
    public var altitudeHAE: Double? {
        guard let altitudeMSL, let geoidSeparation else { return nil }
        return altitudeMSL + geoidSeparation
    }

    /// Whether the fix carries a horizontal position.
    public var hasPosition: Bool { mode.hasPosition && latitude != nil && longitude != nil }
}
