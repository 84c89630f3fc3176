import TrackCore
import TrackText

/// How trackctl writes values for people.
enum Format {
    /// `3D DGPS, 9 satellites, ±3.1 m`.
    static func fixSummary(_ fix: Fix) -> String {
        guard fix.mode.hasPosition else { return fix.mode == .noFix ? "no fix" : "waiting for GPS" }
        var parts = ["\(fix.mode) \(fix.quality)"]
        if let satellites = fix.satellitesUsed { parts.append("\(satellites) satellites") }
        if let eph = fix.eph {
            parts.append("±\(String(printf: "%.1f", eph)) m" + (fix.ephSource == .hdopModel ? " (modelled)" : ""))
        }
        return parts.joined(separator: ", ")
    }

    /// `59.437120° N 24.753610° E, 41 m`.
    static func position(_ fix: Fix) -> String {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return "unknown" }
        var text = String(printf: "%.6f° ", abs(latitude)) + (latitude < 0 ? "S" : "N")
            + String(printf: " %.6f° ", abs(longitude)) + (longitude < 0 ? "W" : "E")
        if let altitude = fix.altitudeMSL { text += String(printf: ", %.0f m", altitude) }
        return text
    }

    /// `50.0 km/h heading 87°` (or `31.1 mph …` in miles), or `not reported`.
    static func speed(_ fix: Fix, unit: DistanceUnit) -> String {
        guard let speed = fix.speed else { return "speed not reported" }
        var text = String(printf: "%.1f ", unit.perHour(metresPerSecond: speed)) + unit.speedName
        if let track = fix.track, speed > 0.5 { text += String(printf: " heading %.0f°", track) }
        return text
    }

    /// `10.28 km`, or `850 m` below a kilometre; in miles `6.39 mi` (`0.53 mi`).
    static func distance(_ metres: Double, unit: DistanceUnit) -> String {
        switch unit {
        case .kilometres:
            metres < 1000 ? String(printf: "%.0f m", metres) : String(printf: "%.2f km", metres / 1000)
        case .miles:
            String(printf: "%.2f mi", metres / unit.metres)
        }
    }
}
