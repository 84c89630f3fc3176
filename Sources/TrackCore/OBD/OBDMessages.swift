/// The messages in an ELM327's data lines. Headers off: each line one message of hex bytes (spaces or not), or an
/// answer longer than one CAN frame as the adapter formats it — its byte count (`014`) then numbered lines
/// (`0: 49 02 01 57 50 30`), joined and cut to the count. Headers on (`AT H1`, an adapter that lost or ignores
/// `AT H0`), on CAN: each line a frame from one control unit, its 11-bit (`7E8`) or 29-bit (`18DAF110`) address
/// first, then the ISO 15765-2 frame byte: a single frame's length, or a first frame's length and the consecutive
/// frames after it, joined per control unit in the order they came.
public enum OBDMessages {
    public static func assemble(_ lines: [String]) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        // Multi-frame answers with headers, per control unit: the bytes so far and the length announced.
        var open: [String: (bytes: [UInt8], length: Int, message: Int)] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if let (address, frame) = canFrame(line) {
                index += 1
                guard let kind = frame.first else { continue }
                switch kind >> 4 {
                case 0:  // A single frame: its length, then the data.
                    messages.append(Array(frame.dropFirst().prefix(Int(kind & 0x0F))))
                case 1:  // A first frame: a 12-bit length, then the first data bytes.
                    guard frame.count >= 2 else { continue }
                    let length = Int(kind & 0x0F) << 8 | Int(frame[1])
                    let bytes = Array(frame.dropFirst(2).prefix(length))
                    messages.append(bytes)
                    open[address] = (bytes, length, messages.count - 1)
                case 2:  // A consecutive frame of the unit's open message.
                    guard var message = open[address] else { continue }
                    message.bytes += frame.dropFirst().prefix(message.length - message.bytes.count)
                    messages[message.message] = message.bytes
                    open[address] = message.bytes.count >= message.length ? nil : message
                default:
                    continue
                }
                continue
            }
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

    /// A CAN frame with its header, as an adapter writes it with headers on: the sender's address (11-bit, three
    /// hex digits: `7E8`; 29-bit, `18DA` then the addresses: `18DAF110`, or `18 DA F1 10` with spaces) and the
    /// frame's bytes after it. `nil` for a line without such a header (headers off: its digits are whole bytes).
    static func canFrame(_ line: String) -> (address: String, frame: [UInt8])? {
        let tokens = line.split(separator: " ")
        let digits = line.filter { $0 != " " }.uppercased()
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        if tokens.count > 1 {
            if tokens[0].count == 3 { return (String(tokens[0]), bytes(tokens.dropFirst().joined())) }
            if tokens.count > 4, tokens[0] == "18", tokens[1].uppercased() == "DA", tokens[0...3].allSatisfy({ $0.count == 2 }) {
                return (tokens[0...3].joined(), bytes(tokens.dropFirst(4).joined()))
            }
            return nil
        }
        // Without spaces: an odd count of digits is an 11-bit address before whole bytes; a 29-bit one starts 18DA.
        if digits.count % 2 == 1, digits.count >= 5 {
            return (String(digits.prefix(3)), bytes(String(digits.dropFirst(3))))
        }
        if digits.hasPrefix("18DA"), digits.count >= 12 {
            return (String(digits.prefix(8)), bytes(String(digits.dropFirst(8))))
        }
        return nil
    }

    /// The bytes of hex digits, spaces ignored; an odd digit at the end is dropped.
    static func bytes(_ text: String) -> [UInt8] {
        let digits = text.compactMap(\.hexDigitValue)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }
}
