/// Escaping of text for XML documents (GPX, the XHTML report and its SVG maps) and HTML (the page's pairing form).
public enum MarkupText {
    /// `text` as XML character data or an attribute value: `&`, `<`, `>`, `"` and `'` escaped, a carriage return
    /// kept as a reference (a parser would turn a literal one into a line feed), and the characters XML 1.0 does
    /// not allow (other control characters, unpaired surrogates cannot occur in a Swift string) replaced by U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\r": result += "&#13;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
