import Foundation
import TrackCore

extension Fix {
    /// The fix as a u-blox receiver reports one epoch of it: RMC, VTG, GGA, GSA and GST, with checksums and CRLF
    /// (the GST's error figures such that the 95 % horizontal error is about `eph`).
    public var nmeaEpoch: String {
        guard let time, let latitude, let longitude else { return "" }
        let iso = time.iso8601(fractionDigits: 2)   // 2026-11-22T08:00:01.00Z
        let parts = iso.split(separator: "T")
        let date = parts[0].split(separator: "-")
        let ddmmyy = "\(date[2])\(date[1])\(date[0].suffix(2))"
        let clock = parts[1].dropLast().replacingOccurrences(of: ":", with: "")
        let knots = (speed ?? 0) / 0.514444
        let course = String(format: "%.2f", track ?? 0)
        let lat = Self.nmeaAngle(latitude, degreesWidth: 2, positive: "N", negative: "S")
        let lon = Self.nmeaAngle(longitude, degreesWidth: 3, positive: "E", negative: "W")
        let sigma = String(format: "%.1f", (eph ?? 5) / 2.45)
        let hdop = String(format: "%.2f", self.hdop ?? 0.9)
        let satellites = String(format: "%02d", satellitesUsed ?? 10)
        return [
            "GNRMC,\(clock),A,\(lat),\(lon),\(String(format: "%.3f", knots)),\(course),\(ddmmyy),,,A,V",
            "GNVTG,\(course),T,,M,\(String(format: "%.3f", knots)),N,\(String(format: "%.3f", (speed ?? 0) * 3.6)),K,A",
            "GNGGA,\(clock),\(lat),\(lon),1,\(satellites),\(hdop),\(String(format: "%.1f", altitudeMSL ?? 35)),M,18.1,M,,",
            "GNGSA,A,3,02,05,07,09,13,15,18,20,30,,,,1.39,\(hdop),1.13,1",
            "GNGST,\(clock),8.5,\(sigma),\(sigma),0.0,\(sigma),\(sigma),4.0",
        ].map { body in
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$\(body)*\(String(format: "%02X", checksum))\r\n"
        }.joined()
    }

    private static func nmeaAngle(_ value: Double, degreesWidth: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        let text = String(format: "%0\(degreesWidth)d%08.5f", degrees, minutes)
        return "\(text),\(value >= 0 ? positive : negative)"
    }
}
