extension String {
    /// This text with every `target` scalar replaced by `replacement` (without Foundation).
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == target { result += replacement } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
