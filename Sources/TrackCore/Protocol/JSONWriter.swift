/// Writes JSON text straight into bytes, exactly as Foundation's `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes it, for the answer asked most often (`status`), where `JSONEncoder` was half of
/// trackd's CPU under load (docs/benchmarks.md). Callers write keys in sorted order; `JSONWriterTests` holds the
/// output to `JSONEncoder`'s, byte for byte.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    /// A value was just completed, so the next key or element needs a comma first.
    private var needsComma = false

    public init(capacity: Int = 2048) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes an object; `body` writes its members.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        enclosed(UInt8(ascii: "{"), UInt8(ascii: "}"), body)
    }

    /// Writes a member's key; the next value written is the member's value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    /// Writes a member whose key is not known at compile time (a dictionary's).
    public mutating func key(text name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string, escaped as `JSONEncoder` escapes it (quote, backslash and control characters).
    public mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = JSONWriter.hexDigits
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a whole number.
    public mutating func number(_ value: Int) {
        separate()
        if value >= 0 {
            bytes.appendDigits(value, width: 1)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    /// Writes a number in its shortest exact form (`5`, `0.1`, `1e-07`); `null` for one that is not finite, which
    /// JSON cannot hold.
    public mutating func number(_ value: Double) {
        separate()
        needsComma = true
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        let text = value.description.utf8
        if text.count > 2, text.suffix(2).elementsEqual(".0".utf8) {
            bytes.append(contentsOf: text.dropLast(2))
        } else {
            bytes.append(contentsOf: text)
        }
    }

    /// Writes a GPS time as ISO 8601 text with milliseconds, as `UTCTime`'s `Codable` form.
    public mutating func time(_ value: UTCTime) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        value.writeISO8601(into: &bytes, fractionDigits: 3)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes an array; `body` writes its elements.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        enclosed(UInt8(ascii: "["), UInt8(ascii: "]"), body)
    }

    /// An object's or an array's brackets around what `body` writes.
    private mutating func enclosed(_ open: UInt8, _ close: UInt8, _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(open)
        needsComma = false
        body(&self)
        bytes.append(close)
        needsComma = true
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    /// Writes a member only when it has a value (`encodeIfPresent`).
    public mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// Writes a member only when it has a value (`encodeIfPresent`).
    public mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    /// Writes a member only when it has a finite value.
    public mutating func member(_ name: StaticString, _ value: Double?) {
        guard let value, value.isFinite else { return }
        key(name)
        number(value)
    }

    /// Writes a member only when it has a value (`encodeIfPresent`).
    public mutating func member(_ name: StaticString, _ value: UTCTime?) {
        guard let value else { return }
        key(name)
        time(value)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = false
    }
}
