/// What the broker or server acknowledged, as kept in memory that outlives the daemon but not the power (a file on
/// tmpfs, `UplinkMarkFile`): the contiguous watermark and the positions acknowledged ahead of it. Written at every
/// acknowledgement, it lets a daemon that was killed resume exactly after what was acknowledged, so that only the
/// messages in flight are sent again; the log's own watermark, written seldom to spare the card, is the fallback
/// after a power cut. The record is a fixed-size text with a checksum: a torn or foreign one reads as absent.
public struct UplinkMark: Sendable, Hashable {
    public var acknowledged: UplinkCursor
    /// Positions acknowledged ahead of the watermark (newest position first while a backlog drains).
    public var ahead: [UplinkPosition]

    /// The most positions ahead a record keeps (the newest; older ones are sent again after a restart).
    public static let aheadLimit = 32
    /// Bytes of a record: every record has this size, so that one write replaces the last in place.
    public static let size = 2048
    static let header = "trackd-uplink-mark 1"

    public init(acknowledged: UplinkCursor, ahead: [UplinkPosition] = []) {
        self.acknowledged = acknowledged
        self.ahead = ahead
    }

    /// The record: a header, the watermark, the positions ahead, a checksum of those lines, padded with spaces.
    public func encoded() -> [UInt8] {
        let cursor = acknowledged
        var body = "\(Self.header)\n\(cursor.tripID.rawValue) \(cursor.started ? 1 : 0) \(cursor.pointSeq) \(cursor.eventID) \(cursor.ended ? 1 : 0)\n"
        body += ahead.suffix(Self.aheadLimit).map(Self.text).joined(separator: " ") + "\n"
        var bytes = Array(body.utf8)
        bytes += Array("\(Self.checksum(bytes))\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: max(0, Self.size - bytes.count))
        return bytes
    }

    /// Reads a record; `nil` when it is not one (torn, foreign, damaged).
    public init?(decoding bytes: some Collection<UInt8>) {
        let lines = Array(bytes).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 4 else { return nil }
        let body = Array(lines[0...2].joined(separator: [UInt8(ascii: "\n")])) + [UInt8(ascii: "\n")]
        guard String(decoding: lines[3], as: UTF8.self) == "\(Self.checksum(body))",
              String(decoding: lines[0], as: UTF8.self) == Self.header else { return nil }
        let fields = String(decoding: lines[1], as: UTF8.self).split(separator: " ").compactMap { Int64($0) }
        guard fields.count == 5, fields[1] <= 1, fields[4] <= 1, fields[1] >= 0, fields[4] >= 0 else { return nil }
        acknowledged = UplinkCursor(tripID: TripID(rawValue: fields[0]), started: fields[1] == 1, pointSeq: fields[2],
                                    eventID: fields[3], ended: fields[4] == 1)
        var ahead: [UplinkPosition] = []
        for word in String(decoding: lines[2], as: UTF8.self).split(separator: " ") {
            guard let position = Self.position(word) else { return nil }
            ahead.append(position)
        }
        self.ahead = ahead
    }

    /// `12:s`, `12:p345`, `12:e17`, `12:x`.
    static func text(_ position: UplinkPosition) -> String {
        switch position.part {
        case .started: "\(position.tripID.rawValue):s"
        case .point(let seq): "\(position.tripID.rawValue):p\(seq)"
        case .event(let id): "\(position.tripID.rawValue):e\(id)"
        case .ended: "\(position.tripID.rawValue):x"
        }
    }

    static func position(_ word: Substring) -> UplinkPosition? {
        let halves = word.split(separator: ":")
        guard halves.count == 2, let trip = Int64(halves[0]), let kind = halves[1].first else { return nil }
        let number = Int64(halves[1].dropFirst())
        let part: UplinkPosition.Part
        switch (kind, number) {
        case ("s", nil) where halves[1].count == 1: part = .started
        case ("x", nil) where halves[1].count == 1: part = .ended
        case ("p", let seq?): part = .point(seq)
        case ("e", let id?): part = .event(id)
        default: return nil
        }
        return UplinkPosition(tripID: TripID(rawValue: trip), part: part)
    }

    /// FNV-1a, 64 bits: enough to tell a whole record from a torn or foreign one.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Where to resume: this mark when it is at or past `saved` (the log's watermark) in every stream, else `saved`
    /// alone (a mark behind the log is stale).
    public func resumption(after saved: UplinkCursor) -> UplinkMark {
        guard acknowledged.isAtOrPast(saved) else { return UplinkMark(acknowledged: saved) }
        return UplinkMark(acknowledged: acknowledged, ahead: ahead.filter { !acknowledged.covers($0) })
    }
}
