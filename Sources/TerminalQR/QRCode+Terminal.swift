extension QRCode {
    /// The code as terminal lines: two rows of modules to a line in half blocks (▀ ▄ █), `quietZone` light modules
    /// around it (the standard asks for four; two read well on a screen), drawn black on white with ANSI colours so
    /// that a terminal with a dark background shows it the right way round.
    public func terminalLines(quietZone: Int = 2) -> [String] {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = Self.blackOnWhite
            for column in range {
                switch (self[top, column], self[top + 1, column]) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + Self.reset)
        }
        return lines
    }

    /// Black characters on a bright white background.
    static let blackOnWhite = "\u{1B}[30;107m"
    static let reset = "\u{1B}[0m"
}
