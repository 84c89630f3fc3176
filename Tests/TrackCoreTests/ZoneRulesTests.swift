import Foundation
import TestSupport
import Testing
@testable import TrackCore

struct ZoneRulesTests {
    /// Zones with most kinds of history: EU rules, US rules, a half-hour offset, a half-hour daylight saving time in
    /// the southern hemisphere, a zone that skipped a day (Apia, 2011), and one without transitions.
    static let zones = ["Europe/Tallinn", "Europe/Berlin", "Europe/London", "America/New_York", "Australia/Lord_Howe",
                        "Asia/Kolkata", "Pacific/Apia", "UTC"]

    // MARK: - Against the system

    @Test(arguments: zones)
    func matchesTheSystemEverySixHoursFrom1970To2060(zone: String) throws {
        let rules = try ZoneRules(tzif: SystemZoneOffsets.file(zone))
        let system = try SystemZoneOffsets(zone: zone)
        var mismatches: [String] = []
        var time = unix(1970, 1, 1)
        while time < unix(2061, 1, 1) {
            let offset = rules.offsetSeconds(atUnixSeconds: time)
            if offset != system.offset(at: time) { mismatches.append("\(time): \(offset), not \(system.offset(at: time))") }
            time += 6 * 3600
        }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches.count) mismatches, first \(mismatches.prefix(5))")
    }

    /// Local times in a spring-forward gap (the first seven, a skipped day last but one) and in a repeated hour
    /// (the last four, the earlier instant), with the instants Python's zoneinfo gives them (java.time and ICU agree).
    static let localTimes: [(zone: String, local: Int64, instant: Int64)] = [
        ("America/Santiago", unix(2025, 9, 7, 0, 30), 1_757_219_400),        // 01:30 -03 after the jump
        ("America/Sao_Paulo", unix(2018, 11, 4, 0, 30), 1_541_302_200),      // 01:30 -02
        ("America/New_York", unix(2026, 3, 8, 2, 30), 1_772_955_000),        // 03:30 EDT
        ("Australia/Lord_Howe", unix(2025, 10, 5, 2, 15), 1_759_592_700),    // 02:45 +11, a half-hour jump
        ("Europe/Tallinn", unix(2026, 3, 29, 3, 30), 1_774_747_800),         // 04:30 EEST
        ("Pacific/Chatham", unix(2025, 9, 28, 2, 50), 1_758_981_900),        // 03:50 +13:45
        ("Asia/Tehran", unix(2022, 3, 22, 0, 30), 1_647_896_400),            // 01:30 +04:30
        ("Africa/Casablanca", unix(2026, 3, 22, 2, 30), 1_774_146_600),      // 03:30 +01
        ("Pacific/Apia", unix(2011, 12, 30, 12, 0), 1_325_282_400),          // a day that never was: the 31st, 12:00
        ("Europe/Tallinn", unix(2026, 10, 25, 3, 30), 1_792_888_200),        // the first 03:30, EEST
        ("America/New_York", unix(2026, 11, 1, 1, 30), 1_793_511_000),       // the first 01:30, EDT
        ("Australia/Lord_Howe", unix(2026, 4, 5, 1, 45), 1_775_313_900),     // the first 01:45, +11
        ("America/Santiago", unix(2026, 4, 5, 23, 30), 1_775_446_200),
    ]

    @Test(arguments: localTimes.indices)
    func readsALocalTimeInAGapAsPastTheJumpAndInARepeatedHourAsTheEarlier(index: Int) throws {
        let (zone, local, instant) = Self.localTimes[index]
        let rules = try ZoneRules(tzif: SystemZoneOffsets.file(zone))
        #expect(rules.unixSeconds(ofLocalSeconds: local) == instant,
                "\(zone) \(local): \(rules.unixSeconds(ofLocalSeconds: local) - instant) s off")
    }

    @Test(arguments: zones)
    func readsEveryLocalTimeThatExistsOnceBackToItsInstant(zone: String) throws {
        // Every quarter of an hour within a day and a half of each of the zone's changes from 1970 to 2060: an
        // instant's local time reads back to that instant, but in a repeated hour, where the earlier instant is the
        // one read. (Away from the changes, local time is the instant shifted by one offset.)
        let rules = try ZoneRules(tzif: SystemZoneOffsets.file(zone))
        let system = try SystemZoneOffsets(zone: zone)
        var mismatches: [String] = []
        var checked = 0
        for change in system.changes where change.at >= unix(1970, 1, 2) && change.at < unix(2061, 1, 1) {
            for time in stride(from: change.at - 36 * 3600, through: change.at + 36 * 3600, by: 900) {
                let local = time + Int64(rules.offsetSeconds(atUnixSeconds: time))
                let read = rules.unixSeconds(ofLocalSeconds: local)
                let repeated = read < time && read + Int64(rules.offsetSeconds(atUnixSeconds: read)) == local
                if read != time && !repeated { mismatches.append("\(time) read as \(read)") }
                checked += 1
            }
        }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches.count) of \(checked) mismatch, first \(mismatches.prefix(5))")
    }

    @Test(arguments: zones)
    func changesOffsetAtTheSameSecondsAsTheSystem(zone: String) throws {
        let rules = try ZoneRules(tzif: SystemZoneOffsets.file(zone))
        let system = try SystemZoneOffsets(zone: zone)
        for change in system.changes where change.at >= unix(1970, 1, 1) && change.at < unix(2061, 1, 1) {
            #expect(rules.offsetSeconds(atUnixSeconds: change.at) == change.offset, "\(zone) at \(change.at)")
            #expect(rules.offsetSeconds(atUnixSeconds: change.at - 1) == system.offset(at: change.at - 1),
                    "\(zone) before \(change.at)")
        }
        // The sampled zones with daylight saving time change twice a year up to 2060, the footer's rule included.
        if !["Asia/Kolkata", "UTC", "Pacific/Apia"].contains(zone) {
            #expect(system.changes.filter { $0.at >= unix(2038, 1, 1) }.count >= 40)
        }
    }

    @Test func readsASlimFileWhoseFooterCarriesTheYearsAfterItsLastRuleChange() throws {
        let folder = try TemporaryFolder()
        let source = folder.file("zones")
        try """
            Rule EU 1981 max - Mar lastSun 1:00u 1:00 S
            Rule EU 1996 max - Oct lastSun 1:00u 0 -
            Rule EU 1981 1995 - Sep lastSun 1:00u 0 -
            Zone Test/Slim 2:00 EU EE%sT

            """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiled = try runProgram("/usr/sbin/zic", ["-b", "slim", "-d", folder.path, source])
        #expect(compiled.status == 0, "zic: \(compiled.error)")
        let path = folder.file("Test/Slim")
        let rules = try ZoneRules(tzif: Array(try #require(FileManager.default.contents(atPath: path))))
        #expect(rules.transitions.last ?? 0 < unix(2000, 1, 1), "a slim file stops where the footer can go on")
        let system = try SystemZoneOffsets(zone: path)
        var time = unix(1970, 1, 1)
        while time < unix(2061, 1, 1) {
            #expect(rules.offsetSeconds(atUnixSeconds: time) == system.offset(at: time), "at \(time)")
            time += 6 * 3600
        }
    }

    // MARK: - The file's parts

    @Test func followsTheFooterRuleAfterTheLastTransition() throws {
        let file = TZifBuilder(
            types: [.init(offset: 7200), .init(offset: 10800, isDST: true, designation: 8)],
            transitions: [(unix(2000, 3, 26, 1), 1), (unix(2000, 10, 29, 1), 0)],
            footer: "EET-2EEST,M3.5.0/3,M10.5.0/4")
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1999, 7, 1)) == 7200)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2000, 7, 1)) == 10800)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2000, 12, 1)) == 7200)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2001, 7, 1)) == 10800)
        // 2030: the last Sundays of March and October, 01:00 UTC.
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2030, 3, 31, 1) - 1) == 7200)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2030, 3, 31, 1)) == 10800)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2030, 10, 27, 1) - 1) == 10800)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2030, 10, 27, 1)) == 7200)
    }

    @Test func usesLocalTimeTypeZeroBeforeTheFirstTransition() throws {
        let file = TZifBuilder(types: [.init(offset: 5940), .init(offset: 7200, designation: 4)],
                               transitions: [(unix(1921, 5, 1), 1)], footer: "STD-2")
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1900, 1, 1)) == 5940)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1921, 5, 1) - 1) == 5940)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1921, 5, 1)) == 7200)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2100, 1, 1)) == 7200)
    }

    @Test func appliesTheFooterRuleThroughoutWhenThereIsNoTransition() throws {
        let file = TZifBuilder(types: [.init(offset: 3600)], footer: "CET-1CEST,M3.5.0,M10.5.0/3")
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1980, 1, 15)) == 3600)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1980, 7, 15)) == 7200)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2026, 7, 15)) == 7200)
        // Without a footer, local time type 0 throughout.
        let bare = TZifBuilder(types: [.init(offset: -10800)])
        #expect(try ZoneRules(tzif: bare.bytes).offsetSeconds(atUnixSeconds: unix(2026, 7, 15)) == -10800)
    }

    @Test func keepsTheLastTransitionsOffsetWithoutAFooterRule() throws {
        let transitions: [(time: Int64, type: UInt8)] = [(unix(1980, 1, 1), 1)]
        let types: [TZifBuilder.LocalTimeType] = [.init(offset: 0), .init(offset: 19800, designation: 4)]
        for version in [0, UInt8(ascii: "2")] {
            let rules = try ZoneRules(tzif: TZifBuilder(version: version, types: types, transitions: transitions).bytes)
            #expect(rules.offsetSeconds(atUnixSeconds: unix(1979, 12, 31)) == 0)
            #expect(rules.offsetSeconds(atUnixSeconds: unix(2050, 6, 1)) == 19800)
        }
    }

    @Test(arguments: [UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4")])
    func readsThe64BitBlockOfVersionsTwoToFour(version: UInt8) throws {
        // A transition before 1901 fits only in 64 bits; the 32-bit block says something else, to be ignored.
        var file = TZifBuilder(version: version, types: [.init(offset: 1000), .init(offset: 3600, designation: 4)],
                               transitions: [(unix(1850, 1, 1), 1)])
        file.versionOneBlock = []
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1849, 12, 31)) == 1000)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1900, 1, 1)) == 3600)
    }

    @Test func readsVersionOneFilesFromTheir32BitBlock() throws {
        let file = TZifBuilder(version: 0, types: [.init(offset: 0), .init(offset: 3600, isDST: true, designation: 8)],
                               transitions: [(unix(1990, 3, 25, 1), 1), (unix(1990, 9, 30, 1), 0)])
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1990, 3, 25, 1) - 1) == 0)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1990, 6, 1)) == 3600)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1990, 10, 1)) == 0)
    }

    @Test func readsPastLeapSecondRecords() throws {
        var file = TZifBuilder(types: [.init(offset: 0), .init(offset: 3600, designation: 4)],
                               transitions: [(unix(1990, 1, 1), 1)], footer: "STD-1")
        file.leapSeconds = [(78_796_800, 1), (94_694_401, 2)]
        let rules = try ZoneRules(tzif: file.bytes)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(1980, 1, 1)) == 0)
        #expect(rules.offsetSeconds(atUnixSeconds: unix(2020, 1, 1)) == 3600)
    }

    @Test func answersAtTheEndsOfTime() throws {
        let rules = try ZoneRules(tzif: SystemZoneOffsets.file("Europe/Tallinn"))
        #expect(rules.offsetSeconds(atUnixSeconds: .max) == 7200)
        #expect([5940, 7200, 10800].contains(rules.offsetSeconds(atUnixSeconds: .min)))
        let footerOnly = try ZoneRules(tzif: TZifBuilder(types: [.init(offset: 3600)], footer: "CET-1CEST,M3.5.0,M10.5.0/3").bytes)
        #expect(footerOnly.offsetSeconds(atUnixSeconds: .min) == 3600)
        #expect(footerOnly.offsetSeconds(atUnixSeconds: .max) == 3600)
    }

    // MARK: - Bad files

    @Test func refusesBytesThatAreNotTZif() {
        #expect(throws: ZoneRulesError.notTZif) { try ZoneRules(tzif: Array("hello, world".utf8)) }
        #expect(throws: ZoneRulesError.notTZif) { try ZoneRules(tzif: Array("<!DOCTYPE html><html></html>".utf8)) }
        var random = SplitMix64(seed: 8536)
        for _ in 0..<200 {
            let bytes = (0..<Int(random.next() % 4096)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: bytes) }
        }
    }

    @Test func refusesEveryCutOfARealFile() throws {
        let bytes = try SystemZoneOffsets.file("Europe/Tallinn")
        for length in 0..<bytes.count {
            #expect(throws: ZoneRulesError.self, "cut at \(length)") { try ZoneRules(tzif: Array(bytes.prefix(length))) }
        }
        #expect(throws: ZoneRulesError.truncated(part: "header", needed: 44, available: 2)) {
            try ZoneRules(tzif: Array("TZ".utf8))
        }
    }

    @Test func survivesCorruptedBytesEitherRefusingThemOrAnsweringWithAnOffsetTheFileStates() throws {
        let original = try SystemZoneOffsets.file("Europe/Tallinn")
        var random = SplitMix64(seed: 1970)
        var read = 0, refused = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0...(random.next() % 4) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            // Either refused or read; read rules answer anywhere in time, with an offset the (damaged) file states:
            // a local time type's, or the footer rule's standard or daylight offset.
            guard let rules = try? ZoneRules(tzif: bytes) else {
                refused += 1
                continue
            }
            read += 1
            var stated = Set([rules.initialOffset] + rules.offsets)
            if let rule = rules.rule {
                stated.insert(rule.standardOffsetSeconds)
                if let daylight = rule.daylight { stated.insert(daylight.offsetSeconds) }
            }
            for time in [Int64.min, -1_000_000_000_000, 0, 1_800_000_000, 4_000_000_000, .max] {
                let offset = rules.offsetSeconds(atUnixSeconds: time)
                #expect(stated.contains(offset), "\(offset) s at \(time), stated: \(stated.sorted())")
            }
        }
        // The damage reached both outcomes.
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }

    @Test func refusesFilesThatBreakTheFormatsRules() {
        let types: [TZifBuilder.LocalTimeType] = [.init(offset: 0), .init(offset: 3600, designation: 4)]
        var badType = TZifBuilder(types: types, transitions: [(0, 2)])
        badType.versionOneBlock = []
        #expect(throws: ZoneRulesError.invalidData("a transition names local time type 2 of 2")) {
            try ZoneRules(tzif: badType.bytes)
        }
        var unordered = TZifBuilder(types: types, transitions: [(100, 1), (100, 0)])
        unordered.versionOneBlock = []
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: unordered.bytes) }
        #expect(throws: ZoneRulesError.unsupportedVersion(UInt8(ascii: "5"))) {
            try ZoneRules(tzif: TZifBuilder(version: UInt8(ascii: "5"), types: types).bytes)
        }
        #expect(throws: ZoneRulesError.invalidData("no local time type")) {
            try ZoneRules(tzif: TZifBuilder(version: 0, types: []).bytes)
        }
        #expect(throws: ZoneRulesError.invalidRule("EET-2EEST,M3.5.0/3", reason: "',' expected (at character 19)")) {
            try ZoneRules(tzif: TZifBuilder(types: types, footer: "EET-2EEST,M3.5.0/3").bytes)
        }
        var noNewline = TZifBuilder(types: types).bytes
        noNewline.removeLast()
        #expect(throws: ZoneRulesError.truncated(part: "footer", needed: 1, available: 0)) {
            try ZoneRules(tzif: noNewline)
        }
    }
}

/// Seconds since the Unix epoch of a UTC date and time.
func unix(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Int64 {
    CivilDate(year: year, month: month, day: day)!.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60)
}
