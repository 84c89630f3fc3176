/// Reads a TZif file's big-endian fields in order, failing with the part it was reading when the bytes run out.
struct TZifCursor {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bytes after the ones read.
    var remaining: Int { bytes.count - offset }

    /// The next `count` bytes; throws `truncated` naming `part` when fewer are left.
    mutating func take(_ count: Int, part: String) throws(ZoneRulesError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw .truncated(part: part, needed: count, available: remaining)
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    /// Skips `count` bytes; throws `truncated` naming `part` when fewer are left.
    mutating func skip(_ count: Int, part: String) throws(ZoneRulesError) {
        _ = try take(count, part: part)
    }

    /// A 32-bit unsigned number.
    mutating func uint32(part: String) throws(ZoneRulesError) -> UInt32 {
        try take(4, part: part).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A signed number of `width` bytes (4 or 8), two's complement.
    mutating func signed(width: Int, part: String) throws(ZoneRulesError) -> Int64 {
        let unsigned = try take(width, part: part).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return width == 8 ? Int64(bitPattern: unsigned) : Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned)))
    }

    /// One byte.
    mutating func byte(part: String) throws(ZoneRulesError) -> UInt8 {
        try take(1, part: part).first!
    }
}
