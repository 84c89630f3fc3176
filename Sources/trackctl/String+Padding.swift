extension String {
    /// This text cut or padded with spaces to `length` UTF-16 code units: Foundation's
    /// `padding(toLength: length, withPad: " ", startingAt: 0)`.
    func padding(toLength length: Int) -> String {
        let units = utf16.count
        guard units > length else { return self + String(repeating: " ", count: length - units) }
        return String(decoding: Array(utf16.prefix(length)), as: UTF16.self)
    }
}
