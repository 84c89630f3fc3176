extension String {
    /// As a terminal may show it: every control character but the line break and the tab (C0, DEL, C1: the escape
    /// that starts a terminal's commands, the carriage return that overwrites a line, the bell) as a visible sign —
    /// Unicode's control pictures for C0 and DEL (`␛`, `␍`, `␇`), `�` for C1 — so that text from the log (a purpose
    /// typed on the page, a place's name) cannot retitle, clear or move about the terminal `trackctl` prints to.
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" })
        else { return self }
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09: scalars.append(scalar)
            case 0x00...0x1F: scalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: scalars.append("\u{2421}")
            case 0x80...0x9F: scalars.append("\u{FFFD}")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
