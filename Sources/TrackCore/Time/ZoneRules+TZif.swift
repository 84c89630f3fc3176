extension ZoneRules {
    /// The rules a TZif file holds (RFC 8536, versions 1–4); throws `ZoneRulesError` for bytes that are not one,
    /// are cut short, or break the format's rules (counts, type indices, transitions out of order, the footer).
    public init(tzif bytes: [UInt8]) throws(ZoneRulesError) {
        var cursor = TZifCursor(bytes)
        let first = try Header(&cursor)
        guard first.version >= 2 else {
            try first.validate()
            let block = try DataBlock(&cursor, header: first, timeWidth: 4)
            self.init(block, rule: nil)
            return
        }
        // Version 2 and later: the 32-bit block is for old readers; the 64-bit block and the footer follow it.
        try cursor.skip(first.blockSize(timeWidth: 4), part: "version 1 data block")
        let second = try Header(&cursor)
        guard second.version == first.version else {
            throw .invalidData("the second header's version (\(second.version)) differs from the first's (\(first.version))")
        }
        try second.validate()
        let block = try DataBlock(&cursor, header: second, timeWidth: 8)
        self.init(block, rule: try Self.footer(&cursor))
    }

    /// The rules of a data block, with the footer's rule.
    private init(_ block: DataBlock, rule: PosixZoneRule?) {
        self.init(transitions: block.transitions, offsets: block.transitionTypes.map { block.offsets[Int($0)] },
                  initialOffset: block.offsets[0], rule: rule)
    }

    /// The footer: a TZ string between two newlines; `nil` when it is empty.
    private static func footer(_ cursor: inout TZifCursor) throws(ZoneRulesError) -> PosixZoneRule? {
        guard try cursor.byte(part: "footer") == UInt8(ascii: "\n") else {
            throw .invalidData("the footer does not begin with a newline")
        }
        var text: [UInt8] = []
        while true {
            let byte = try cursor.byte(part: "footer")
            if byte == UInt8(ascii: "\n") { break }
            guard byte != 0, byte < 0x80 else { throw .invalidData("the footer's TZ string is not ASCII text") }
            text.append(byte)
        }
        guard !text.isEmpty else { return nil }
        return try PosixZoneRule(parsing: String(decoding: text, as: UTF8.self))
    }

    /// A header: the version and the counts of its data block.
    private struct Header {
        var version: UInt8
        var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

        init(_ cursor: inout TZifCursor) throws(ZoneRulesError) {
            let magic = Array(try cursor.take(min(4, cursor.remaining), part: "header"))
            guard magic == Array("TZif".utf8.prefix(magic.count)) else { throw .notTZif }
            guard magic.count == 4 else { throw .truncated(part: "header", needed: 44, available: magic.count) }
            let versionByte = try cursor.byte(part: "header")
            switch versionByte {
            case 0: version = 1
            case UInt8(ascii: "2")...UInt8(ascii: "4"): version = versionByte - UInt8(ascii: "0")
            default: throw .unsupportedVersion(versionByte)
            }
            try cursor.skip(15, part: "header")
            isutcnt = Int(try cursor.uint32(part: "header"))
            isstdcnt = Int(try cursor.uint32(part: "header"))
            leapcnt = Int(try cursor.uint32(part: "header"))
            timecnt = Int(try cursor.uint32(part: "header"))
            typecnt = Int(try cursor.uint32(part: "header"))
            charcnt = Int(try cursor.uint32(part: "header"))
        }

        /// The counts RFC 8536 allows for the block that is read.
        func validate() throws(ZoneRulesError) {
            guard typecnt >= 1 else { throw .invalidData("no local time type") }
            guard charcnt >= 1 else { throw .invalidData("no time zone designation") }
            guard isutcnt == 0 || isutcnt == typecnt else {
                throw .invalidData("\(isutcnt) UT/local indicators for \(typecnt) local time types")
            }
            guard isstdcnt == 0 || isstdcnt == typecnt else {
                throw .invalidData("\(isstdcnt) standard/wall indicators for \(typecnt) local time types")
            }
        }

        /// Bytes of the data block after this header, with transition times and leap seconds `timeWidth` bytes wide.
        func blockSize(timeWidth: Int) -> Int {
            timecnt * timeWidth + timecnt + typecnt * 6 + charcnt + leapcnt * (timeWidth + 4) + isstdcnt + isutcnt
        }
    }

    /// What a data block holds that the offsets need.
    private struct DataBlock {
        var transitions: [Int64] = []
        var transitionTypes: [UInt8] = []
        /// The UT offset of each local time type.
        var offsets: [Int] = []

        init(_ cursor: inout TZifCursor, header: Header, timeWidth: Int) throws(ZoneRulesError) {
            // The whole block is checked to be there before anything is allocated for its counts.
            let size = header.blockSize(timeWidth: timeWidth)
            guard size <= cursor.remaining else {
                throw .truncated(part: "data block", needed: size, available: cursor.remaining)
            }
            transitions.reserveCapacity(header.timecnt)
            for _ in 0..<header.timecnt {
                let time = try cursor.signed(width: timeWidth, part: "transition times")
                if let previous = transitions.last, time <= previous {
                    throw .invalidData("transition times are not in ascending order (\(time) after \(previous))")
                }
                transitions.append(time)
            }
            transitionTypes = Array(try cursor.take(header.timecnt, part: "transition types"))
            if let bad = transitionTypes.first(where: { Int($0) >= header.typecnt }) {
                throw .invalidData("a transition names local time type \(bad) of \(header.typecnt)")
            }
            for _ in 0..<header.typecnt {
                let offset = try cursor.signed(width: 4, part: "local time types")
                guard offset != Int64(Int32.min) else { throw .invalidData("a UT offset of -2^31") }
                let isDST = try cursor.byte(part: "local time types")
                let designation = try cursor.byte(part: "local time types")
                guard isDST <= 1 else { throw .invalidData("a daylight-saving flag of \(isDST)") }
                guard Int(designation) < header.charcnt else {
                    throw .invalidData("a designation index of \(designation) past \(header.charcnt) characters")
                }
                offsets.append(Int(offset))
            }
            try cursor.skip(header.charcnt, part: "time zone designations")
            try cursor.skip(header.leapcnt * (timeWidth + 4), part: "leap-second records")
            try cursor.skip(header.isstdcnt + header.isutcnt, part: "indicators")
        }
    }
}
