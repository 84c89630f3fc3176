extension String {
    /// This text without spaces and tabs at either end: Foundation's `trimmingCharacters(in: .whitespaces)`, whose
    /// set is Unicode's space separators (general category Zs), the tab and the zero-width space (U+200B).
    var trimmingWhitespace: String {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = unicodeScalars.firstIndex(where: { !isWhitespace($0) }),
              let last = unicodeScalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(String.UnicodeScalarView(unicodeScalars[first...last]))
    }
}
