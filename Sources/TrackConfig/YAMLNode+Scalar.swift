extension YAMLNode {
    /// Text in a YAML document: what it says, how it was written, the tag written before it and where it starts.
    struct Scalar: Sendable, Hashable {
        /// The text, quotes and escapes resolved (`"a\tb"` is `a`, a tab, `b`).
        let text: String
        /// How the text was written: a plain `5` is a number, a quoted `"5"` is text.
        let style: Style
        /// The tag written before it as libyaml resolves it (`!!str` is `tag:yaml.org,2002:str`); `nil` when none.
        let tag: String?
        let mark: Mark

        /// How a scalar was written.
        enum Style: Sendable, Hashable {
            /// `5`, `true`, `Europe/Tallinn`.
            case plain
            /// `'5'`.
            case singleQuoted
            /// `"5"`.
            case doubleQuoted
            /// A `|` block.
            case literal
            /// A `>` block.
            case folded
        }
    }
}

// What the text means as a value, as Yams (which read the configuration before libyaml's events did) told it:
// YAML 1.1's words for true and false, numbers only when written plain.
extension YAMLNode.Scalar {
    /// The tag of text: `!!str`.
    static let stringTag = "tag:yaml.org,2002:str"

    /// Whether the scalar is text whatever it says: quoted, a block, or tagged `!!str`.
    var isText: Bool { (tag ?? (style == .plain ? nil : Self.stringTag)) == Self.stringTag }

    /// `true` for `true`, `yes` or `on`, `false` for `false`, `no` or `off`, in any case (YAML 1.1's booleans);
    /// `nil` for other text, and for any text that is quoted or tagged `!!str`.
    var bool: Bool? {
        guard !isText else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// A whole number written plain: decimal, `0x` hexadecimal, `0o` or a leading `0` octal, `0b` binary, `1:30` in
    /// base 60, with an optional sign and `_` between digits; `nil` for anything else, quoted text included.
    var int: Int? {
        guard style == .plain else { return nil }
        let digits = text.filter { $0 != "_" }
        if digits == "0" { return 0 }
        let negative = digits.hasPrefix("-")
        let unsigned = digits.dropFirst(negative || digits.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where unsigned.hasPrefix(prefix) {
            return Int((negative ? "-" : "") + unsigned.dropFirst(prefix.count), radix: radix)
        }
        if unsigned.contains(":") {
            return Self.base60(digits) { Int($0, radix: 10) } combine: { value, digit, weight in
                let (product, productOverflows) = digit.multipliedReportingOverflow(by: weight)
                let (sum, sumOverflows) = value.addingReportingOverflow(product)
                let (next, nextOverflows) = weight.multipliedReportingOverflow(by: 60)
                return productOverflows || sumOverflows || nextOverflows ? nil : (sum, next)
            }
        }
        return Int(digits)
    }

    /// A number written plain: what Swift's `Double(_:)` reads once `_` are taken out, `.inf`, `-.inf`, `.nan`, or
    /// `1:30.5` in base 60; `nil` for anything else, quoted text included.
    var double: Double? {
        guard style == .plain else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let digits = text.filter { $0 != "_" }
            guard digits.contains(":") else { return Double(digits) }
            return Self.base60(digits) { Double($0) } combine: { value, digit, weight in (value + digit * weight, weight * 60) }
        }
    }

    /// `text` (a sign, then parts between `:`) in base 60, the last part counting ones: each part read by `part`, the
    /// sum built from the last part on by `combine` (value, part, its signed weight → value, the next weight); `nil`
    /// when a part cannot be read or `combine` overflows.
    private static func base60<Number: SignedNumeric>(
        _ text: String, part: (Substring) -> Number?, combine: (Number, Number, Number) -> (Number, Number)?
    ) -> Number? {
        let negative = text.hasPrefix("-")
        let body = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        var value: Number = 0
        var weight: Number = negative ? -1 : 1
        for piece in body.split(separator: ":", omittingEmptySubsequences: false).reversed() {
            guard let digit = part(piece), let step = combine(value, digit, weight) else { return nil }
            (value, weight) = step
        }
        return value
    }
}
