extension PosixZoneRule {
    /// The rule a TZ string writes: `std offset [dst [offset] [,start[/time],end[/time]]]`, names alphabetic or
    /// quoted in `<…>`, offsets `[+-]hh[:mm[:ss]]` west of UTC, days `Jn`, `n` or `Mm.w.d`, times up to ±167 h
    /// (RFC 8536 §3.3.1). Daylight time without an offset is an hour ahead of standard time; without days it follows
    /// the United States' rule (`M3.2.0,M11.1.0`), as the C library does.
    public init(parsing text: String) throws(ZoneRulesError) {
        var parser = Parser(text: text)
        try parser.name()
        let standard = -(try parser.time(maximumHours: 24))
        guard !parser.isAtEnd else {
            self.init(standardOffsetSeconds: standard)
            return
        }
        try parser.name()
        var daylightOffset = standard + 3600
        if let next = parser.peek, next != UInt8(ascii: ",") {
            daylightOffset = -(try parser.time(maximumHours: 24))
        }
        var start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0))
        var end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0))
        if !parser.isAtEnd {
            try parser.expect(",")
            start = try parser.change()
            try parser.expect(",")
            end = try parser.change()
        }
        guard parser.isAtEnd else { throw parser.failure("unexpected text after the rule") }
        self.init(standardOffsetSeconds: standard,
                  daylight: Daylight(offsetSeconds: daylightOffset, start: start, end: end))
    }

    /// Reads a TZ string from left to right.
    private struct Parser {
        let text: String
        let bytes: [UInt8]
        var index = 0

        init(text: String) {
            self.text = text
            bytes = Array(text.utf8)
        }

        var isAtEnd: Bool { index == bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[index] }

        func failure(_ reason: String) -> ZoneRulesError {
            .invalidRule(text, reason: "\(reason) (at character \(index + 1))")
        }

        mutating func expect(_ character: Unicode.Scalar) throws(ZoneRulesError) {
            guard peek == UInt8(ascii: character) else { throw failure("'\(character)' expected") }
            index += 1
        }

        /// A zone abbreviation: three or more letters, or `<` three or more letters, digits, `+` or `-` and `>`.
        mutating func name() throws(ZoneRulesError) {
            func isLetter(_ byte: UInt8) -> Bool {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            }
            var count = 0
            if peek == UInt8(ascii: "<") {
                index += 1
                while let byte = peek, isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") {
                    index += 1
                    count += 1
                }
                try expect(">")
            } else {
                while let byte = peek, isLetter(byte) {
                    index += 1
                    count += 1
                }
            }
            guard count >= 3 else { throw failure("a zone abbreviation of at least three characters expected") }
        }

        /// `[+-]hh[:mm[:ss]]` as seconds, hours at most `maximumHours`.
        mutating func time(maximumHours: Int) throws(ZoneRulesError) -> Int {
            var sign = 1
            if let byte = peek, byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                sign = byte == UInt8(ascii: "-") ? -1 : 1
                index += 1
            }
            let hours = try number(digits: 3, maximum: maximumHours, what: "hours")
            var seconds = hours * 3600
            if peek == UInt8(ascii: ":") {
                index += 1
                seconds += try number(digits: 2, maximum: 59, what: "minutes") * 60
                if peek == UInt8(ascii: ":") {
                    index += 1
                    seconds += try number(digits: 2, maximum: 59, what: "seconds")
                }
            }
            return sign * seconds
        }

        /// `date[/time]`: a day and the time of day of a change (02:00 when left out).
        mutating func change() throws(ZoneRulesError) -> Change {
            let day: Day
            switch peek {
            case UInt8(ascii: "J"):
                index += 1
                day = .julian(try number(digits: 3, minimum: 1, maximum: 365, what: "a Julian day"))
            case UInt8(ascii: "M"):
                index += 1
                let month = try number(digits: 2, minimum: 1, maximum: 12, what: "a month")
                try expect(".")
                let week = try number(digits: 1, minimum: 1, maximum: 5, what: "a week")
                try expect(".")
                let weekday = try number(digits: 1, maximum: 6, what: "a weekday")
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            default:
                day = .zeroBased(try number(digits: 3, maximum: 365, what: "a day of the year"))
            }
            guard peek == UInt8(ascii: "/") else { return Change(day: day) }
            index += 1
            return Change(day: day, secondsAfterMidnight: try time(maximumHours: 167))
        }

        /// A decimal number of one to `digits` digits within `minimum…maximum`.
        mutating func number(digits: Int, minimum: Int = 0, maximum: Int, what: String) throws(ZoneRulesError) -> Int {
            var value = 0
            var count = 0
            while count < digits, let byte = peek, isDigit(byte) {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
                count += 1
            }
            guard count > 0 else { throw failure("\(what) expected") }
            guard (minimum...maximum).contains(value) else {
                throw failure("\(what) of \(value) is outside \(minimum)…\(maximum)")
            }
            return value
        }

        func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
