/// Numbers as fixed-point decimal text, independent of any locale (a point, never a comma; no grouping).
enum DecimalText {
    /// `value` rounded half away from zero to `digits` decimals (0…9), such as `59.4370000`; with `trimmed`,
    /// trailing zeros and a bare point are left off (`12.5`, `12`). Not-finite values give `0`.
    static func fixed(_ value: Double, digits: Int, trimmed: Bool = false) -> String {
        let digits = min(max(digits, 0), 9)
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.isFinite, scaled.magnitude < 9e18 else { return "0" }
        let integer = Int64(scaled)
        let sign = integer < 0 ? "-" : ""
        let magnitude = integer.magnitude
        let divisor = UInt64(scale)
        let whole = String(magnitude / divisor)
        guard digits > 0 else { return sign + whole }
        var fraction = String(magnitude % divisor)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        if trimmed {
            while fraction.hasSuffix("0") { fraction.removeLast() }
            if fraction.isEmpty { return (magnitude == 0 ? "" : sign) + whole }
        }
        return sign + whole + "." + fraction
    }
}
