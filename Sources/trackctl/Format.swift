import TrackCore
import TrackReports
import TrackText
import TrackctlTexts

/// How trackctl writes values for people.
enum Format {
    /// `3D DGPS, 9 satellites, ±3.1 m`.
    static func fixSummary(_ fix: Fix) -> String {
        guard fix.mode.hasPosition else { return fix.mode == .noFix ? t("no fix") : t("waiting for GPS") }
        var parts = ["\(fix.mode) \(fix.quality)"]
        if let satellites = fix.satellitesUsed { parts.append(t("\(satellites) satellites")) }
        if let eph = fix.eph {
            let metres = figure(String(printf: "%.1f", eph))
            parts.append(fix.ephSource == .hdopModel ? t("±\(metres) m (modelled)") : "±\(metres) m")
        }
        return parts.joined(separator: ", ")
    }

    /// `59.437120° N 24.753610° E, 41 m`.
    static func position(_ fix: Fix) -> String {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return t("unknown") }
        var text = String(printf: "%.6f° ", abs(latitude)) + (latitude < 0 ? "S" : "N")
            + String(printf: " %.6f° ", abs(longitude)) + (longitude < 0 ? "W" : "E")
        if let altitude = fix.altitudeMSL { text += String(printf: ", %.0f m", altitude) }
        return text
    }

    /// `50.0 km/h heading 87°` (or `31.1 mph …` in miles), or `not reported`.
    static func speed(_ fix: Fix, unit: DistanceUnit) -> String {
        guard let speed = fix.speed else { return t("speed not reported") }
        let text = figure(String(printf: "%.1f ", unit.perHour(metresPerSecond: speed))) + unit.speedName
        guard let track = fix.track, speed > 0.5 else { return text }
        let heading = String(printf: "%.0f", track)
        return t("\(text) heading \(heading)°")
    }

    /// `10.28 km`, or `850 m` below a kilometre; in miles `6.39 mi` (`0.53 mi`).
    static func distance(_ metres: Double, unit: DistanceUnit) -> String {
        switch unit {
        case .kilometres:
            metres < 1000 ? String(printf: "%.0f m", metres) : figure(String(printf: "%.2f km", metres / 1000))
        case .miles:
            figure(String(printf: "%.2f mi", metres / unit.metres))
        }
    }

    /// A figure as trackctl's language writes it: `12.4` in English, `12,4` in German and Estonian (in a value a
    /// person reads, never in a command to type).
    static func figure(_ text: String) -> String {
        Speech.language == .english ? text : String(text.map { $0 == "." ? "," : $0 })
    }

    /// A rate of the allowance as trackctl's language writes it: `0.30 €/km`, `£0.45/mi (£0.25 past 10,000 mi a tax
    /// year)`, `…, at most 300.00 € a month`.
    static func rate(_ rate: AllowanceRate) -> String {
        let labels = ReportLabels.of(Speech.language)
        let currency = rate.country.currency
        let unit = rate.country.unit.rawValue
        let money = { (thousandths: Int64) in labels.number(AllowanceRate.rateText(thousandths, currency)) }
        var text = "\(money(rate.rate))/\(unit)"
        if let reduced = rate.reducedRate, let threshold = rate.threshold {
            text += t(" (\(money(reduced)) past \(labels.grouped(threshold)) \(unit) a tax year)")
        }
        if let cap = rate.monthlyCap { text += t(", at most \(labels.number(currency.text(minor: cap))) a month") }
        return text
    }
}
