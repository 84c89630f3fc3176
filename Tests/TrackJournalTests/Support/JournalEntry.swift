/// One entry as journald receives it over its native socket, parsed the way journald parses it: `NAME=value\n`, or
/// for a value with a newline `NAME\n`, a 64-bit little-endian length, the bytes and `\n`.
struct JournalEntry {
    /// A datagram that is not the native protocol.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Every field in the order it came; a name may come more than once.
    private(set) var fields: [(name: String, value: [UInt8])] = []
    /// The names of the fields that came in the binary form.
    private(set) var binaryNames: Set<String> = []

    init(parsing bytes: [UInt8]) throws {
        var position = 0
        while position < bytes.count {
            guard let newline = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                throw Malformed(description: "no newline after byte \(position)")
            }
            let line = bytes[position..<newline]
            if let equals = line.firstIndex(of: UInt8(ascii: "=")) {
                fields.append((String(decoding: line[..<equals], as: UTF8.self), Array(line[(equals + 1)...])))
                position = newline + 1
            } else {
                let name = String(decoding: line, as: UTF8.self)
                let lengthStart = newline + 1
                guard lengthStart + 8 <= bytes.count else { throw Malformed(description: "\(name): no length") }
                let length = bytes[lengthStart..<lengthStart + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                let dataStart = lengthStart + 8
                guard length <= UInt64(bytes.count - dataStart - 1), bytes[dataStart + Int(length)] == UInt8(ascii: "\n")
                else { throw Malformed(description: "\(name): \(length) bytes do not fit or end without a newline") }
                fields.append((name, Array(bytes[dataStart..<dataStart + Int(length)])))
                binaryNames.insert(name)
                position = dataStart + Int(length) + 1
            }
        }
    }

    /// The values of a field, as text.
    func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// The value of a field that came once; nil when it did not come or came more than once.
    subscript(name: String) -> String? {
        let values = values(name)
        return values.count == 1 ? values[0] : nil
    }

    /// Every field name, in the order they came.
    var names: [String] { fields.map(\.name) }
}
