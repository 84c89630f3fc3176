import FoundationEssentials
import NIOCore

/// JSON values as single lines on the control socket.
public enum JSONLines {
    /// One line of JSON with its newline.
    public static func encode(_ value: some Encodable) throws -> ByteBuffer {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: data)
    }

    /// A value from one line.
    public static func decode<Value: Decodable>(_ type: Value.Type, from line: ByteBuffer) throws -> Value {
        try JSONDecoder().decode(type, from: Data(line.readableBytesView))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }
}
