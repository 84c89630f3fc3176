extension String {
    /// Without leading and trailing white space (spaces, tabs, line breaks: Unicode's White_Space), as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gave, without Foundation.
    public var trimmed: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// Without spaces and tabs at either end: Foundation's `trimmingCharacters(in: .whitespaces)`, whose set is
    /// Unicode's space separators (general category Zs), the tab and the zero-width space (U+200B); line breaks
    /// stay.
    public var trimmingWhitespace: String {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = unicodeScalars.firstIndex(where: { !isWhitespace($0) }),
              let last = unicodeScalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(String.UnicodeScalarView(unicodeScalars[first...last]))
    }
}
