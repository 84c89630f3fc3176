/// The battery voltage an ELM327 measures at the OBD-II socket (`AT RV`: `13.1V`): above about 13 V the alternator
/// charges, so the engine runs.
public enum ELM327Voltage {
    /// The volts in `reply`; `nil` when it holds no reading.
    public static func volts(in reply: ELM327Reply) -> Double? {
        guard case .text(let text) = reply else { return nil }
        var number = text.uppercased()
        guard number.hasSuffix("V") else { return nil }
        number.removeLast()
        guard let volts = Double(number), volts.isFinite, (0...40).contains(volts) else { return nil }
        return volts
    }
}
