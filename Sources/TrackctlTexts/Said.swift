import TrackCore

/// A sentence trackctl says to a person, written in English: its key (the English with `{0}`, `{1}`… where its
/// values go), by which `SaidTexts` finds it in another language, and the values, in order.
///
/// Written as an interpolated literal, `"trip \(number) stopped"`, it is the key `trip {0} stopped` with one value.
public struct Said: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The English, with `{0}`, `{1}`… in place of the values.
    public var key: String
    /// The values, as text, in the order they stand in the English.
    public var values: [String]

    public init(key: String, values: [String] = []) {
        self.key = key
        self.values = values
    }

    public init(stringLiteral value: String) {
        self.init(key: value)
    }

    public init(stringInterpolation: Interpolation) {
        self.init(key: stringInterpolation.key, values: stringInterpolation.values)
    }

    /// The sentence in `language`: its table's text with the values put in, else the English.
    public func text(in language: Language) -> String {
        Said.fill(SaidTexts.table(of: language)?[key] ?? key, with: values)
    }

    /// `format` with `{n}` replaced by `values[n]`; any other brace stays as it is.
    public static func fill(_ format: String, with values: [String]) -> String {
        guard !values.isEmpty else { return format }
        var result = ""
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let index = Int(after[..<close]), values.indices.contains(index) {
                result += values[index]
                rest = after[after.index(after: close)...]
            } else {
                result += "{"
                rest = after
            }
        }
        return result + rest
    }

    /// Builds a `Said` from an interpolated literal: the literal's text as it is, each value as `{n}`.
    public struct Interpolation: StringInterpolationProtocol, Sendable {
        var key = ""
        var values: [String] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 3 * interpolationCount)
            values.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            key += literal
        }

        public mutating func appendInterpolation(_ value: some Any) {
            key += "{\(values.count)}"
            values.append("\(value)")
        }
    }
}
