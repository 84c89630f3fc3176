/// The currency of an allowance. Amounts are exact: integer minor units (cents, pence).
public enum Currency: String, Sendable, Hashable, Codable, CaseIterable {
    case euro = "EUR"
    case pound = "GBP"
    case dollar = "USD"

    /// `1234` minor units as a person reads them: `12.34 €`, `£12.34`, `$12.34`.
    public func text(minor: Int64) -> String {
        let sign = minor < 0 ? "-" : ""
        let magnitude = minor.magnitude
        let cents = magnitude % 100
        let number = "\(magnitude / 100).\(cents < 10 ? "0" : "")\(cents)"
        switch self {
        case .euro: return "\(sign)\(number) €"
        case .pound: return "\(sign)£\(number)"
        case .dollar: return "\(sign)$\(number)"
        }
    }
}
