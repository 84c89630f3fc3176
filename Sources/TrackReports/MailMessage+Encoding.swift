import TrackCore

/// The encodings a message's text goes through: base64 lines, RFC 2047 encoded words, the RFC 5322 date.
extension MailMessage {
    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64 (RFC 4648), without line breaks.
    public static func base64(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = second == nil ? nil : iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(base64Alphabet[Int(group >> 18 & 63)])
            output.append(base64Alphabet[Int(group >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : base64Alphabet[Int(group & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `bytes` in base64, in lines of 76 characters (RFC 2045), each ending in CRLF; nothing for no bytes.
    public static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Array(base64(bytes).utf8)
        var text = ""
        text.reserveCapacity(encoded.count + encoded.count / 76 * 2 + 2)
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            text += String(decoding: encoded[start..<end], as: UTF8.self) + "\r\n"
            start = end
        }
        return text
    }

    /// A header's text as it is written: as it is when it is printable ASCII and its line stays within 78
    /// characters; else as RFC 2047 encoded words (`=?UTF-8?B?…?=`, at most 75 characters each, never cutting a
    /// character), folded onto lines of their own. A line break in `text` becomes a space.
    public static func encodedHeaderText(_ text: String, name: String) -> String {
        let plain = String(text.map { $0.isNewline ? " " : $0 })
        if plain.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), name.count + 2 + plain.utf8.count <= 78,
           !plain.contains("=?") {
            return plain
        }
        // 75 characters less `=?UTF-8?B?` and `?=` leave 63 for base64: 45 bytes of text. The first word shares
        // its line with the header's name, and the line stays within 78.
        let firstLimit = min(45, (78 - name.count - 2 - 12) / 4 * 3)
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in plain.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > (words.isEmpty ? firstLimit : 45) {
                words.append("=?UTF-8?B?" + base64(chunk) + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + base64(chunk) + "?=") }
        return words.joined(separator: "\r\n ")
    }

    /// `"2026-11.csv"`: a MIME parameter value in quotes, a quote or backslash in it escaped.
    static func quotedParameter(_ value: String) -> String {
        var text = "\""
        for character in value {
            if character == "\"" || character == "\\" { text.append("\\") }
            text.append(character.isNewline ? " " : character)
        }
        return text + "\""
    }

    /// `Tue, 01 Dec 2026 06:00:00 +0000`: `time` as RFC 5322's date-time, in UTC.
    public static func rfc5322Date(_ time: UTCTime) -> String {
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let date = time.date
        let seconds = Int(time.nanosecondOfDay / UTCTime.nanosecondsPerSecond)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[date.weekdayFromMonday]), \(twoDigits(date.day)) \(months[date.month - 1]) \(date.year) "
            + "\(twoDigits(seconds / 3600)):\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60)) +0000"
    }
}
