/// An instant in UTC as a GNSS receiver reports it: nanoseconds since 1970-01-01T00:00:00Z, leap seconds not counted.
///
/// Trip times come from here (GPS time), never from the system clock: the board may have no real-time clock.
public struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000
    public static let nanosecondsPerDay: Int64 = 86_400 * nanosecondsPerSecond

    /// Nanoseconds since the Unix epoch.
    public var nanosecondsSinceEpoch: Int64

    public init(nanosecondsSinceEpoch: Int64) {
        self.nanosecondsSinceEpoch = nanosecondsSinceEpoch
    }

    /// The instant `nanosecondOfDay` after midnight UTC on `date`.
    public init(date: CivilDate, nanosecondOfDay: Int64) {
        nanosecondsSinceEpoch = date.daysSinceEpoch * UTCTime.nanosecondsPerDay + nanosecondOfDay
    }

    /// Whole and fractional seconds since the Unix epoch.
    public init(secondsSinceEpoch: Double) {
        nanosecondsSinceEpoch = Int64((secondsSinceEpoch * 1e9).rounded())
    }

    /// Seconds since the Unix epoch.
    public var secondsSinceEpoch: Double { Double(nanosecondsSinceEpoch) / 1e9 }

    /// Whole seconds since the Unix epoch, rounded down (also before 1970).
    public var wholeSecondsSinceEpoch: Int64 {
        let quotient = nanosecondsSinceEpoch / UTCTime.nanosecondsPerSecond
        return nanosecondsSinceEpoch % UTCTime.nanosecondsPerSecond < 0 ? quotient - 1 : quotient
    }

    /// The UTC calendar day of this instant.
    public var date: CivilDate {
        CivilDate(daysSinceEpoch: nanosecondsSinceEpoch.floorDiv(UTCTime.nanosecondsPerDay))
    }

    /// Nanoseconds since midnight UTC.
    public var nanosecondOfDay: Int64 {
        nanosecondsSinceEpoch.floorMod(UTCTime.nanosecondsPerDay)
    }

    /// This instant moved by `seconds`.
    public func adding(seconds: Double) -> UTCTime {
        UTCTime(nanosecondsSinceEpoch: nanosecondsSinceEpoch + Int64((seconds * 1e9).rounded()))
    }

    /// Seconds from `other` to this instant.
    public func seconds(since other: UTCTime) -> Double {
        Double(nanosecondsSinceEpoch - other.nanosecondsSinceEpoch) / 1e9
    }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool {
        lhs.nanosecondsSinceEpoch < rhs.nanosecondsSinceEpoch
    }

    /// ISO 8601 with milliseconds: `2026-11-22T10:00:01.000Z`.
    public var description: String { iso8601(fractionDigits: 3) }

    /// ISO 8601 in UTC with 0 to 9 fraction digits (truncated, as gpsd prints).
    public func iso8601(fractionDigits: Int = 3) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        writeISO8601(into: &bytes, fractionDigits: fractionDigits)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the ISO 8601 text to `bytes` without allocating a `String`.
    public func writeISO8601(into bytes: inout [UInt8], fractionDigits: Int = 3) {
        let date = self.date
        let nanos = nanosecondOfDay
        let seconds = nanos / UTCTime.nanosecondsPerSecond
        bytes.appendDigits(date.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendDigits(date.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        bytes.appendDigits(date.day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        bytes.appendDigits(Int(seconds / 3600), width: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendDigits(Int(seconds / 60 % 60), width: 2)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendDigits(Int(seconds % 60), width: 2)
        let digits = min(max(fractionDigits, 0), 9)
        if digits > 0 {
            var fraction = nanos % UTCTime.nanosecondsPerSecond
            for _ in 0..<(9 - digits) { fraction /= 10 }
            bytes.append(UInt8(ascii: "."))
            bytes.appendDigits(Int(fraction), width: digits)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses ISO 8601 UTC times such as `2026-11-22T10:00:01Z`, `2026-11-22T10:00:01.250Z` or with a `+02:00`
    /// offset; `nil` for anything else.
    public init?(iso8601 text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              let date = CivilDate(year: year, month: month, day: day),
              index < bytes.count, bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ")
        else { return nil }
        index += 1
        guard let hour = number(2), hour < 24, expect(":"), let minute = number(2), minute < 60, expect(":"),
              let second = number(2), second < 61
        else { return nil }
        var nanos: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var scale: Int64 = 100_000_000
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                nanos += Int64(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if expect("Z") {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(":")
            guard let minutes = number(2) else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let secondOfDay = Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        self.init(date: date, nanosecondOfDay: secondOfDay * UTCTime.nanosecondsPerSecond + nanos)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder that goes with `floorDiv`, always in `0..<divisor` for a positive divisor.
    func floorMod(_ divisor: Int64) -> Int64 {
        self - floorDiv(divisor) * divisor
    }
}

extension [UInt8] {
    /// Appends a non-negative integer, zero-padded to `width` digits.
    mutating func appendDigits(_ value: Int, width: Int) {
        var remaining = UInt64(Swift.max(value, 0))
        let start = count
        repeat {
            append(UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30)
            remaining /= 10
        } while remaining > 0
        while count - start < width { append(0x30) }
        self[start..<count].reverse()
    }
}

