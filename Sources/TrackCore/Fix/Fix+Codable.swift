extension Fix: Codable {
    /// gpsd TPV names, as `trackctl decode` prints them.
    enum CodingKeys: String, CodingKey {
        case kind = "class"
        case time, mode, status, lat, lon, alt, geoidSep, speed, track, eph, ephSource, hdop, vdop, pdop, uSat, nSat
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        time = try container.decodeIfPresent(UTCTime.self, forKey: .time)
        mode = FixMode(rawValue: try container.decodeIfPresent(Int.self, forKey: .mode) ?? 0) ?? .notSeen
        quality = FixQuality(rawValue: try container.decodeIfPresent(Int.self, forKey: .status) ?? 1) ?? .unknown
        latitude = try container.decodeIfPresent(Double.self, forKey: .lat)
        longitude = try container.decodeIfPresent(Double.self, forKey: .lon)
        altitudeMSL = try container.decodeIfPresent(Double.self, forKey: .alt)
        geoidSeparation = try container.decodeIfPresent(Double.self, forKey: .geoidSep)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        track = try container.decodeIfPresent(Double.self, forKey: .track)
        eph = try container.decodeIfPresent(Double.self, forKey: .eph)
        ephSource = try container.decodeIfPresent(String.self, forKey: .ephSource).flatMap(HorizontalErrorSource.init)
        hdop = try container.decodeIfPresent(Double.self, forKey: .hdop)
        vdop = try container.decodeIfPresent(Double.self, forKey: .vdop)
        pdop = try container.decodeIfPresent(Double.self, forKey: .pdop)
        satellitesUsed = try container.decodeIfPresent(Int.self, forKey: .uSat)
        satellitesInView = try container.decodeIfPresent(Int.self, forKey: .nSat)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("TPV", forKey: .kind)
        try container.encodeIfPresent(time, forKey: .time)
        try container.encode(mode.rawValue, forKey: .mode)
        if mode.hasPosition { try container.encode(quality.rawValue, forKey: .status) }
        if mode.hasPosition {
            try container.encodeIfPresent(latitude, forKey: .lat)
            try container.encodeIfPresent(longitude, forKey: .lon)
        }
        try container.encodeIfPresent(altitudeMSL.finite, forKey: .alt)
        try container.encodeIfPresent(geoidSeparation.finite, forKey: .geoidSep)
        try container.encodeIfPresent(speed.finite, forKey: .speed)
        try container.encodeIfPresent(track.finite, forKey: .track)
        try container.encodeIfPresent(eph.finite, forKey: .eph)
        try container.encodeIfPresent(ephSource?.rawValue, forKey: .ephSource)
        try container.encodeIfPresent(hdop.finite, forKey: .hdop)
        try container.encodeIfPresent(vdop.finite, forKey: .vdop)
        try container.encodeIfPresent(pdop.finite, forKey: .pdop)
        try container.encodeIfPresent(satellitesUsed, forKey: .uSat)
        try container.encodeIfPresent(satellitesInView, forKey: .nSat)
    }
}

extension Optional<Double> {
    /// The value if it is a finite number (JSON has no NaN or infinity).
    var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}
