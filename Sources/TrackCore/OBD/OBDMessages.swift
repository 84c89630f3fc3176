/// The messages in an ELM327's data lines, headers off: each line one message of hex bytes (spaces or not), or an
/// answer longer than one CAN frame as the adapter formats it — its byte count (`014`) then numbered lines
/// (`0: 49 02 01 57 50 30`), joined and cut to the count.
public enum OBDMessages {
    public static func assemble(_ lines: [String]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if !line.contains(":"), line.count <= 3, let count = Int(line, radix: 16), index + 1 < lines.count,
               lines[index + 1].contains(":") {
                var bytes: [UInt8] = []
                index += 1
                while index < lines.count, let colon = lines[index].firstIndex(of: ":") {
                    bytes += Self.bytes(String(lines[index][lines[index].index(after: colon)...]))
                    index += 1
                }
                messages.append(Array(bytes.prefix(count)))
                continue
            }
            messages.append(Self.bytes(line))
            index += 1
        }
        return messages.filter { !$0.isEmpty }
    }

    /// The bytes of hex digits, spaces ignored; an odd digit at the end is dropped.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = text.compactMap(\.hexDigitValue)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }
}
