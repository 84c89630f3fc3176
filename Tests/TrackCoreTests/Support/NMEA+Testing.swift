@testable import TrackCore

/// Builds test input: sentences with correct checksums, and a reader run over bytes.
enum NMEA {
    /// `$BODY*hh` with the checksum computed from `body` (which has no `$`).
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }

    /// Sentences joined with CRLF, ending in CRLF.
    static func lines(_ bodies: String...) -> String {
        bodies.map { sentence($0) + "\r\n" }.joined()
    }

    /// Everything a reader emits for `input`, fed in chunks of `chunkSize` bytes (all at once when nil).
    static func read(_ input: [UInt8], chunkSize: Int? = nil,
                     configuration: NMEAReader.Configuration = NMEAReader.Configuration(),
                     dateHint: UTCTime? = nil) -> (fixes: [Fix], problems: [NMEADiagnostic], statistics: NMEAStatistics) {
        var reader = NMEAReader(configuration: configuration)
        reader.setDateHint(dateHint)
        var fixes: [Fix] = []
        var problems: [NMEADiagnostic] = []
        let handle: (NMEAReader.Event) -> Void = { event in
            switch event {
            case .fix(let fix): fixes.append(fix)
            case .problem(let problem): problems.append(problem)
            }
        }
        let size = max(1, chunkSize ?? input.count)
        var start = 0
        while start < input.count {
            let end = min(start + size, input.count)
            reader.read(input[start..<end], handle)
            start = end
        }
        reader.finish(handle)
        return (fixes, problems, reader.statistics)
    }

    static func read(_ text: String, chunkSize: Int? = nil,
                     configuration: NMEAReader.Configuration = NMEAReader.Configuration(),
                     dateHint: UTCTime? = nil) -> (fixes: [Fix], problems: [NMEADiagnostic], statistics: NMEAStatistics) {
        read(Array(text.utf8), chunkSize: chunkSize, configuration: configuration, dateHint: dateHint)
    }

    /// Decodes one sentence body (checksum added).
    static func parse(_ body: String) -> NMEAParseResult {
        let bytes = Array(sentence(body).utf8)
        return bytes.withUnsafeBufferPointer { NMEASentence.parse($0) }
    }

    /// Decodes one raw sentence exactly as given.
    static func parseRaw(_ text: String) -> NMEAParseResult {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { NMEASentence.parse($0) }
    }

    /// A u-blox UBX frame with a correct Fletcher checksum.
    static func ubxFrame(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
        var body: [UInt8] = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in body {
            a &+= byte
            b &+= a
        }
        body.append(a)
        body.append(b)
        return [0xB5, 0x62] + body
    }
}

extension NMEAParseResult {
    /// The decoded sentence, if the result is one.
    var sentence: NMEASentence? {
        if case .sentence(let sentence) = self { return sentence }
        return nil
    }

    /// The rejection reason, if the result is one.
    var error: NMEASentenceError? {
        if case .rejected(let error, _) = self { return error }
        return nil
    }
}

extension UTCTime {
    /// A time from ISO 8601 text, for tests that know their input is valid.
    static func iso(_ text: String) -> UTCTime {
        guard let time = UTCTime(iso8601: text) else { preconditionFailure("bad test time \(text)") }
        return time
    }
}
