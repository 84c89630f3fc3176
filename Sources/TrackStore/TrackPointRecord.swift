import TrackCore

/// One record of the running trip's point file (`TrackPointFile`): the file's header naming the trip, a batch of
/// track points, or where the trip starts and ends. Each record carries its number in the file and a CRC-32, so that
/// a record cut short by a power cut, or bytes left over from one, end what is read (docs/storage.md, "The point
/// file").
///
/// Layout, little-endian: kind (1 byte), number (4), payload length (4), CRC-32 (4), payload. The CRC-32 covers the
/// file's generation (4 bytes, from its header; none in a header, nor in a file of format 1), then the kind, number
/// and length, then the payload: a record an earlier generation left in the file fails it, whatever it holds (two
/// generations differ in at most 32 adjacent bits, and CRC-32 finds every such difference). A point is what the log
/// stores of it, in the log's integers (`StoredPoint`), so that the log takes it unchanged.
enum TrackPointRecord: Equatable {
    /// The first record: the file's format, its generation (`nil`: format 1, before 2026-11-27, whose records carry
    /// none) and the trip its points belong to (`nil`: the file holds none).
    case header(tripID: TripID?, generation: UInt32?)
    /// Track points, in order.
    case points([RecordedPoint])
    /// Where the trip starts and ends, as the engine's means of the stops settled (`nil`: unchanged).
    case ends(TripEnds)

    /// Bytes before a record's payload.
    static let headerSize = 13
    /// The header record's payload starts with these bytes: format 1 (a trip, no generation), then 2.
    static let magic = Array("trackd points 1\n".utf8)
    static let magic2 = Array("trackd points 2\n".utf8)
    /// Bytes of a header record of format 2, whatever it names.
    static let headerRecordSize = headerSize + 16 + 4 + 8
    /// A payload longer than this is not one trackd wrote (a point batch of a day at 10 Hz is 48 MB; the file is
    /// moved into the log long before).
    static let longestPayload = 64 << 20
    private static let none = Int64.min

    /// The record as bytes, numbered `number`, in a file of generation `generation` (a header carries its own).
    func encoded(number: UInt32, generation: UInt32?) -> [UInt8] {
        var payload: [UInt8] = []
        let kind: UInt8
        switch self {
        case .header(let tripID, let own):
            kind = 1
            if let own {
                payload = Self.magic2
                payload.append(littleEndian: own)
                payload.append(littleEndian: tripID?.rawValue ?? 0)
            } else {
                payload = Self.magic
                payload.append(littleEndian: tripID?.rawValue ?? 0)
            }
        case .points(let points):
            kind = 2
            payload.reserveCapacity(4 + points.count * 56)
            payload.append(littleEndian: UInt32(points.count))
            for recorded in points {
                let stored = StoredPoint(recorded)
                for value in [stored.timeMilliseconds, stored.latitudeE7, stored.longitudeE7,
                              stored.speedCentimetres ?? Self.none, stored.errorCentimetres ?? Self.none,
                              stored.distanceCentimetres, stored.segment] {
                    payload.append(littleEndian: value)
                }
            }
        case .ends(let ends):
            kind = 3
            payload.append((ends.start == nil ? 0 : 1) | (ends.end == nil ? 0 : 2))
            for coordinate in [ends.start, ends.end] {
                payload.append(littleEndian: (coordinate?.latitude ?? 0).bitPattern)
                payload.append(littleEndian: (coordinate?.longitude ?? 0).bitPattern)
            }
        }
        var bytes: [UInt8] = [kind]
        bytes.reserveCapacity(Self.headerSize + payload.count)
        bytes.append(littleEndian: number)
        bytes.append(littleEndian: UInt32(payload.count))
        let checksum = Self.checksum(generation: kind == 1 ? nil : generation, head: bytes, payload: payload)
        bytes.append(littleEndian: checksum)
        bytes += payload
        return bytes
    }

    /// The record at `offset` of `bytes` and the offset after it, if one is there whole, numbered `number`, with its
    /// checksum right for generation `generation`; `nil` otherwise (the end of what was written whole).
    static func decode(_ bytes: [UInt8], at offset: Int, number: UInt32,
                       generation: UInt32?) -> (record: TrackPointRecord, next: Int)? {
        guard bytes.count - offset >= headerSize else { return nil }
        var reader = ByteReader(bytes: bytes, offset: offset)
        let kind = reader.byte()
        guard reader.uint32() == number else { return nil }
        let length = Int(reader.uint32())
        let checksum = reader.uint32()
        guard length <= longestPayload, bytes.count - reader.offset >= length else { return nil }
        let head = Array(bytes[offset ..< offset + 9])
        let payload = Array(bytes[reader.offset ..< reader.offset + length])
        guard Self.checksum(generation: kind == 1 ? nil : generation, head: head, payload: payload) == checksum
        else { return nil }
        let next = reader.offset + length
        var body = ByteReader(bytes: payload, offset: 0)
        switch kind {
        case 1:
            if length == magic.count + 8, Array(payload.prefix(magic.count)) == magic {
                body.offset = magic.count
                let tripID = body.int64()
                return tripID > 0 ? (.header(tripID: TripID(rawValue: tripID), generation: nil), next) : nil
            }
            guard length == magic2.count + 12, Array(payload.prefix(magic2.count)) == magic2 else { return nil }
            body.offset = magic2.count
            let own = body.uint32()
            let tripID = body.int64()
            return (.header(tripID: tripID > 0 ? TripID(rawValue: tripID) : nil, generation: own), next)
        case 2:
            guard length >= 4 else { return nil }
            let count = Int(body.uint32())
            guard length == 4 + count * 56 else { return nil }
            var points: [RecordedPoint] = []
            points.reserveCapacity(count)
            for _ in 0 ..< count {
                let values = (0 ..< 7).map { _ in body.int64() }
                let stored = StoredPoint(timeMilliseconds: values[0], latitudeE7: values[1], longitudeE7: values[2],
                                         speedCentimetres: values[3] == none ? nil : values[3],
                                         errorCentimetres: values[4] == none ? nil : values[4],
                                         distanceCentimetres: values[5], segment: values[6])
                points.append(stored.recorded)
            }
            return (.points(points), next)
        case 3:
            guard length == 33 else { return nil }
            let flags = body.byte()
            var coordinates: [Coordinate?] = []
            for bit in [UInt8(1), 2] {
                let latitude = Double(bitPattern: UInt64(bitPattern: body.int64()))
                let longitude = Double(bitPattern: UInt64(bitPattern: body.int64()))
                coordinates.append(flags & bit != 0 ? Coordinate(latitude: latitude, longitude: longitude) : nil)
            }
            return (.ends(TripEnds(start: coordinates[0], end: coordinates[1])), next)
        default:
            return nil
        }
    }

    private static func checksum(generation: UInt32?, head: [UInt8], payload: [UInt8]) -> UInt32 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + head.count + payload.count)
        if let generation { bytes.append(littleEndian: generation) }
        bytes += head
        bytes += payload
        return bytes.withUnsafeBytes { CRC32.checksum($0) }
    }
}

/// Reads little-endian integers from bytes whose length was checked before.
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() -> UInt32 {
        var value: UInt32 = 0
        for shift in 0 ..< 4 { value |= UInt32(bytes[offset + shift]) << (8 * shift) }
        offset += 4
        return value
    }

    mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for shift in 0 ..< 8 { value |= UInt64(bytes[offset + shift]) << (8 * shift) }
        offset += 8
        return Int64(bitPattern: value)
    }
}

extension [UInt8] {
    /// Appends `value`'s bytes, least significant first.
    mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }
}
