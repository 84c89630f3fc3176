extension Fix {
    /// The fix as one gpsd-style TPV JSON object on one line (no newline):
    /// `{"class":"TPV","time":"…","mode":3,"lat":…,"lon":…,"alt":…,"speed":…,"track":…,"eph":…}`.
    ///
    /// `time` is left out while the date is unknown; `lat`/`lon` only with a 2D or 3D fix; `alt`, `speed`,
    /// `track`, `eph` and the rest only when known. Extra keys follow gpsd's names where gpsd has one
    /// (`status`, `altHAE`, `geoidSep`), else SKY's (`hdop`, `pdop`, `vdop`, `uSat`, `nSat`).
    public var tpvJSON: String {
        var bytes: [UInt8] = []
        writeTPV(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the TPV JSON object to `bytes`, allocation-free apart from growing the buffer.
    public func writeTPV(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"class":"TPV""#.utf8)
        if let time {
            bytes.append(contentsOf: #","time":""#.utf8)
            time.writeISO8601(into: &bytes, fractionDigits: 3)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(contentsOf: #","mode":"#.utf8)
        bytes.appendDigits(mode.rawValue, width: 1)
        if mode.hasPosition, quality != .unknown, quality != .gps {
            bytes.append(contentsOf: #","status":"#.utf8)
            bytes.appendDigits(quality.rawValue, width: 1)
        }
        if mode.hasPosition, let latitude, let longitude {
            bytes.appendNumber(key: "lat", latitude, decimals: 9)
            bytes.appendNumber(key: "lon", longitude, decimals: 9)
        }
        if let altitudeMSL {
            bytes.appendNumber(key: "alt", altitudeMSL, decimals: 3)
            if let altitudeHAE { bytes.appendNumber(key: "altHAE", altitudeHAE, decimals: 3) }
        }
        if let geoidSeparation { bytes.appendNumber(key: "geoidSep", geoidSeparation, decimals: 3) }
        if let speed { bytes.appendNumber(key: "speed", speed, decimals: 3) }
        if let track { bytes.appendNumber(key: "track", track, decimals: 4) }
        if let eph { bytes.appendNumber(key: "eph", eph, decimals: 3) }
        if let hdop { bytes.appendNumber(key: "hdop", hdop, decimals: 2) }
        if let vdop { bytes.appendNumber(key: "vdop", vdop, decimals: 2) }
        if let pdop { bytes.appendNumber(key: "pdop", pdop, decimals: 2) }
        if let satellitesUsed {
            bytes.append(contentsOf: #","uSat":"#.utf8)
            bytes.appendDigits(satellitesUsed, width: 1)
        }
        if let satellitesInView {
            bytes.append(contentsOf: #","nSat":"#.utf8)
            bytes.appendDigits(satellitesInView, width: 1)
        }
        bytes.append(UInt8(ascii: "}"))
    }
}

extension [UInt8] {
    /// Appends `,"key":value` with at most `decimals` fraction digits (trailing zeros trimmed);
    /// nothing for a value that is not finite.
    mutating func appendNumber(key: StaticString, _ value: Double, decimals: Int) {
        guard value.isFinite else { return }
        append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\"")])
        append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        appendDecimal(value, decimals: decimals)
    }

    /// Appends a finite number in plain decimal notation with at most `decimals` fraction digits.
    mutating func appendDecimal(_ value: Double, decimals: Int) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9.0e18 else {
            append(contentsOf: value.description.utf8)
            return
        }
        var units = UInt64(scaled)
        if value < 0 && units != 0 { append(UInt8(ascii: "-")) }
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        appendDigits(Int(units / divisor), width: 1)
        units %= divisor
        var digits = decimals
        while digits > 1 && units % 10 == 0 {
            units /= 10
            digits -= 1
        }
        append(UInt8(ascii: "."))
        appendDigits(Int(units), width: digits)
    }
}
