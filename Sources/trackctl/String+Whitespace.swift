extension String {
    /// This text without spaces and tabs at either end: Foundation's `trimmingCharacters(in: .whitespaces)`, whose
    /// set is Unicode's space separators (general category Zs) and the tab.
    var trimmingWhitespace: String {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = unicodeScalars.firstIndex(where: { !isWhitespace($0) }),
              let last = unicodeScalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(String.UnicodeScalarView(unicodeScalars[first...last]))
    }

}
