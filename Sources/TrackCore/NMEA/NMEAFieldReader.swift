/// Read access to the comma-separated fields of one checked sentence, without copying them.
///
/// Field 0 is the address (`GPGGA`); field 1 is the first data field, as NMEA 0183 numbers them.
/// Typed accessors return `nil` for an empty field and throw for a field that is present but malformed.
struct NMEAFieldReader {
    /// The sentence text from `$` up to (not including) `*hh`.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Start index of each field, plus one past the last field's end.
    let bounds: UnsafeBufferPointer<Int32>
    /// Number of fields, the address included.
    let count: Int
    /// The three-letter sentence type, for error messages.
    let type: NMEASentenceType

    /// The raw bytes of field `index`; empty when the sentence is shorter.
    @inline(__always)
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < count else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = Int(bounds[index])
        let end = Int(bounds[index + 1]) - 1  // the comma, or one past the end
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    func isEmpty(_ index: Int) -> Bool { field(index).isEmpty }

    /// The field as text (for error messages).
    func text(_ index: Int) -> String { String(decoding: field(index), as: UTF8.self) }

    func invalid(_ index: Int, _ name: String) -> NMEASentenceError {
        .invalidField(type: type, index: index, name: name, value: String(text(index).prefix(24)))
    }

    /// A single character field (status, mode, hemisphere).
    func character(_ index: Int) -> UInt8? {
        let value = field(index)
        return value.isEmpty ? nil : value[0]
    }

    /// A decimal number such as `-12.5`.
    func decimal(_ index: Int, _ name: String) throws(NMEASentenceError) -> Double? {
        let value = field(index)
        if value.isEmpty { return nil }
        guard let number = NMEANumber.parse(value) else { throw invalid(index, name) }
        return number.doubleValue
    }

    /// A decimal that must not be negative (DOP, speed, error estimates).
    func nonNegative(_ index: Int, _ name: String) throws(NMEASentenceError) -> Double? {
        guard let value = try decimal(index, name) else { return nil }
        guard value >= 0 else { throw invalid(index, name) }
        return value
    }

    /// A whole number; a decimal point with only zeros after it is accepted.
    func integer(_ index: Int, _ name: String) throws(NMEASentenceError) -> Int? {
        let value = field(index)
        if value.isEmpty { return nil }
        guard let number = NMEANumber.parse(value), number.isWhole, let whole = number.wholeValue else {
            throw invalid(index, name)
        }
        return whole
    }

    /// A latitude (`ddmm.mmmm` + `N`/`S`) or longitude (`dddmm.mmmm` + `E`/`W`) in signed degrees.
    func coordinate(_ index: Int, hemisphere: Int, isLatitude: Bool) throws(NMEASentenceError) -> Double? {
        let value = field(index)
        let name = isLatitude ? "latitude" : "longitude"
        if value.isEmpty { return nil }
        guard let number = NMEANumber.parse(value), !number.negative,
              let degrees = number.degreesAndMinutes
        else { throw invalid(index, name) }
        guard degrees <= (isLatitude ? 90 : 180) else { throw invalid(index, name) }
        let sign: Double
        switch character(hemisphere) {
        case UInt8(ascii: "N") where isLatitude, UInt8(ascii: "E") where !isLatitude: sign = 1
        case UInt8(ascii: "S") where isLatitude, UInt8(ascii: "W") where !isLatitude: sign = -1
        case nil: throw .missingField(type: type, index: hemisphere, name: isLatitude ? "N/S" : "E/W")
        default: throw invalid(hemisphere, isLatitude ? "N/S" : "E/W")
        }
        return sign * degrees
    }

    /// Digits after the decimal point of a field: the resolution a receiver writes a coordinate with.
    func fractionDigits(_ index: Int) -> Int {
        let value = field(index)
        guard let point = value.firstIndex(of: UInt8(ascii: ".")) else { return 0 }
        return value.count - point - 1
    }

    /// UTC time of day `hhmmss[.sss]` as nanoseconds since midnight.
    func timeOfDay(_ index: Int) throws(NMEASentenceError) -> Int64? {
        let value = field(index)
        if value.isEmpty { return nil }
        guard let nanos = NMEAFieldReader.parseTimeOfDay(value) else { throw invalid(index, "UTC time") }
        return nanos
    }

    /// Date `ddmmyy` (RMC). Two-digit years 80–99 are 1980–1999, 00–79 are 2000–2079.
    func dateDDMMYY(_ index: Int) throws(NMEASentenceError) -> CivilDate? {
        let value = field(index)
        if value.isEmpty { return nil }
        guard value.count == 6, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw invalid(index, "date") }
        func pair(_ at: Int) -> Int { Int(value[at] - 0x30) * 10 + Int(value[at + 1] - 0x30) }
        let yy = pair(4)
        guard let date = CivilDate(year: yy < 80 ? 2000 + yy : 1900 + yy, month: pair(2), day: pair(0)) else {
            throw invalid(index, "date")
        }
        return date
    }

    static func parseTimeOfDay(_ value: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard value.count >= 6 else { return nil }
        var parts = (0, 0, 0)
        for position in 0..<6 {
            let byte = value[position]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let digit = Int(byte - 0x30)
            switch position {
            case 0, 1: parts.0 = parts.0 * 10 + digit
            case 2, 3: parts.1 = parts.1 * 10 + digit
            default: parts.2 = parts.2 * 10 + digit
            }
        }
        guard parts.0 < 24, parts.1 < 60, parts.2 <= 60 else { return nil }
        var nanos: Int64 = 0
        if value.count > 6 {
            guard value[6] == UInt8(ascii: ".") else { return nil }
            var scale: Int64 = 100_000_000
            for position in 7..<value.count {
                let byte = value[position]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                nanos += Int64(byte - 0x30) * scale
                scale /= 10
            }
        }
        let seconds = Int64(parts.0 * 3600 + parts.1 * 60 + parts.2)
        return seconds * UTCTime.nanosecondsPerSecond + nanos
    }
}

/// A decimal number as written in a field: its digits as an integer and the count of digits after the point.
struct NMEANumber {
    var mantissa: UInt64
    var fractionDigits: Int
    var negative: Bool

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Parses `[+-]digits[.digits]`; `nil` for anything else or more than 18 significant digits.
    @inline(__always)
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> NMEANumber? {
        var index = 0
        var negative = false
        if text.count > 0, text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fraction = -1
        var sawDigit = false
        while index < text.count {
            let byte = text[index]
            if byte >= 0x30 && byte <= 0x39 {
                sawDigit = true
                if digits < 18 {
                    mantissa = mantissa &* 10 &+ UInt64(byte - 0x30)
                    if mantissa != 0 || fraction >= 0 { digits += 1 }
                    if fraction >= 0 { fraction += 1 }
                } else if fraction < 0 {
                    return nil  // an integer part too long to hold
                }
            } else if byte == UInt8(ascii: ".") && fraction < 0 {
                fraction = 0
            } else {
                return nil
            }
            index += 1
        }
        guard sawDigit else { return nil }
        return NMEANumber(mantissa: mantissa, fractionDigits: max(fraction, 0), negative: negative)
    }

    var doubleValue: Double {
        let magnitude = Double(mantissa) / NMEANumber.powersOfTen[min(fractionDigits, 22)]
        return negative ? -magnitude : magnitude
    }

    var isWhole: Bool {
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor &*= 10 }
        return mantissa % divisor == 0
    }

    var wholeValue: Int? {
        var divisor: UInt64 = 1
        for _ in 0..<fractionDigits { divisor &*= 10 }
        let whole = mantissa / divisor
        guard whole <= UInt64(Int.max) else { return nil }
        return negative ? -Int(whole) : Int(whole)
    }

    /// `dddmm.mmmm` as degrees; `nil` when the minutes are 60 or more.
    var degreesAndMinutes: Double? {
        var scale: UInt64 = 100
        for _ in 0..<fractionDigits { scale &*= 10 }
        let degrees = mantissa / scale
        let minuteDigits = mantissa % scale
        let minutes = Double(minuteDigits) / NMEANumber.powersOfTen[min(fractionDigits, 22)]
        guard minutes < 60 else { return nil }
        return Double(degrees) + minutes / 60
    }
}
