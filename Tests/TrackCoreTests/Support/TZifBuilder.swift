@testable import TrackCore

/// Writes small TZif files (RFC 8536) for tests: local time types, transitions, leap seconds and a footer.
struct TZifBuilder {
    /// A local time type: seconds ahead of UTC, daylight saving or not, and the index of its abbreviation.
    struct LocalTimeType {
        var offset: Int32
        var isDST = false
        var designation: UInt8 = 0
    }

    /// 0 for version 1, else `2`, `3` or `4` as ASCII.
    var version = UInt8(ascii: "2")
    var types: [LocalTimeType]
    var transitions: [(time: Int64, type: UInt8)] = []
    var designations = Array("LMT\0STD\0DST\0".utf8)
    var leapSeconds: [(time: Int64, correction: Int32)] = []
    /// The footer's TZ string (versions 2 and later).
    var footer = ""
    /// What the version 1 block holds in a file of version 2 or later; `nil` for the same data, cut to 32 bits.
    var versionOneBlock: [(time: Int64, type: UInt8)]?

    init(version: UInt8 = UInt8(ascii: "2"), types: [LocalTimeType], transitions: [(time: Int64, type: UInt8)] = [],
         footer: String = "") {
        self.version = version
        self.types = types
        self.transitions = transitions
        self.footer = footer
    }

    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        let fitting = transitions.filter { Int64(Int32.min)...Int64(Int32.max) ~= $0.time }
        bytes += block(transitions: version == 0 ? transitions : versionOneBlock ?? fitting, timeWidth: 4)
        guard version != 0 else { return bytes }
        bytes += block(transitions: transitions, timeWidth: 8)
        bytes += Array("\n\(footer)\n".utf8)
        return bytes
    }

    /// A header and its data block.
    private func block(transitions: [(time: Int64, type: UInt8)], timeWidth: Int) -> [UInt8] {
        var bytes = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
        for count in [types.count, types.count, leapSeconds.count, transitions.count, types.count, designations.count] {
            bytes += Self.bigEndian(Int64(count), width: 4)
        }
        for transition in transitions { bytes += Self.bigEndian(transition.time, width: timeWidth) }
        bytes += transitions.map(\.type)
        for type in types {
            bytes += Self.bigEndian(Int64(type.offset), width: 4) + [type.isDST ? 1 : 0, type.designation]
        }
        bytes += designations
        for leap in leapSeconds {
            bytes += Self.bigEndian(leap.time, width: timeWidth) + Self.bigEndian(Int64(leap.correction), width: 4)
        }
        bytes += [UInt8](repeating: 0, count: types.count * 2)
        return bytes
    }

    static func bigEndian(_ value: Int64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
