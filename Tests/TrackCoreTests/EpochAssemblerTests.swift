import Foundation
import Testing
@testable import TrackCore

struct EpochAssemblerTests {
    @Test func groupsTheSentencesOfOneInstantIntoOneFix() throws {
        let input = NMEA.lines(
            "GNRMC,100001.00,A,5926.22000,N,02445.21600,E,27.000,87.50,221126,,,A",
            "GNVTG,87.50,T,,M,27.000,N,50.004,K,A",
            "GNGGA,100001.00,5926.22000,N,02445.21600,E,1,09,0.80,41.2,M,18.1,M,,",
            "GNGSA,A,3,01,02,03,04,05,,,,,,,,1.50,0.80,1.20,1",
            "GNGSA,A,3,65,66,67,68,,,,,,,,,1.50,0.80,1.20,2",
            "GNGST,100001.00,5.1,2.0,1.5,45.0,1.2,0.9,2.5",
            "GPGSV,2,1,06,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45",
            "GPGSV,2,2,06,05,40,083,46,06,17,308,41",
            "GLGSV,1,1,04,65,40,083,46,66,17,308,41,67,07,344,39,68,22,228,45"
        )
        let result = NMEA.read(input)
        #expect(result.problems.isEmpty)
        let fix = try #require(result.fixes.first)
        #expect(result.fixes.count == 1)
        #expect(fix.time == .iso("2026-11-22T10:00:01Z"))
        #expect(fix.mode == .threeD)
        #expect(fix.quality == .gps)
        #expect(abs(fix.latitude! - (59 + 26.22 / 60)) < 1e-12)
        #expect(abs(fix.longitude! - (24 + 45.216 / 60)) < 1e-12)
        #expect(fix.altitudeMSL == 41.2)
        #expect(fix.geoidSeparation == 18.1)
        #expect(abs(fix.speed! - 27 * 1852 / 3600) < 1e-9)
        #expect(fix.track == 87.5)
        #expect(fix.hdop == 0.8)
        #expect(fix.vdop == 1.2)
        #expect(fix.satellitesUsed == 9)
        #expect(fix.satellitesInView == 10)
        #expect(fix.ephSource == .receiver)
        #expect(abs(fix.eph! - 2 * (1.2 * 1.2 + 0.9 * 0.9).squareRoot()) < 1e-12)
    }

    @Test func modelsTheErrorFromHDOPWithoutGST() throws {
        let result = NMEA.read(NMEA.lines(
            "GPRMC,100001,A,5926.22,N,02445.21,E,0.0,0.0,221126,,,D",
            "GPGGA,100001,5926.22,N,02445.21,E,2,07,1.5,41.2,M,18.1,M,,"
        ))
        let fix = try #require(result.fixes.first)
        #expect(fix.quality == .dgps)
        #expect(fix.ephSource == .hdopModel)
        #expect(fix.eph == HorizontalErrorModel().fromHDOP(1.5, quality: .dgps))
        #expect(fix.eph == 2 * 1.5 * 2.0)
    }

    @Test func reportsSpeedAndCourseOnlyWhenTheReceiverDid() {
        // GGA-only epochs of a moving receiver: positions change, but no speed is invented.
        let result = NMEA.read(NMEA.lines(
            "GPRMC,100000,A,5926.000,N,02445.000,E,20.0,90.0,221126,,",
            "GPGGA,100000,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,100001,5926.000,N,02445.020,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,100002,5926.000,N,02445.040,E,1,08,0.9,10.0,M,0.0,M,,"
        ))
        #expect(result.fixes.count == 3)
        #expect(result.fixes[0].speed != nil)
        #expect(result.fixes[1].speed == nil)
        #expect(result.fixes[1].track == nil)
        #expect(result.fixes[2].speed == nil)
    }

    @Test func followsTheFixThroughThreeDTwoDAndNoFix() {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,100000,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2",
            "GPRMC,100000,A,5926.000,N,02445.000,E,0.0,0.0,221126,,",
            "GPGGA,100001,5926.000,N,02445.000,E,1,03,2.5,10.0,M,0.0,M,,",
            "GPGSA,A,2,01,02,03,,,,,,,,,,2.7,2.5,1.0",
            "GPRMC,100001,A,5926.000,N,02445.000,E,0.0,0.0,221126,,",
            "GPGGA,100002,,,,,0,00,,,M,,M,,",
            "GPGSA,A,1,,,,,,,,,,,,,,,",
            "GPRMC,100002,V,,,,,,,221126,,,N",
            "GPRMC,100003,V,5926.000,N,02445.000,E,0.0,0.0,221126,,",
            "GNGNS,100004,5926.000,N,02445.000,E,NN,00,,,,,",
            "GPGGA,100005,5926.000,N,02445.000,E,1,09,0.8,11.0,M,0.0,M,,",
            "GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.4,0.8,1.1",
            "GPRMC,100005,A,5926.000,N,02445.000,E,0.0,0.0,221126,,"
        ))
        #expect(result.fixes.map(\.mode) == [.threeD, .twoD, .noFix, .noFix, .noFix, .threeD])
        // A 2D fix carries no altitude: in 2D the receiver holds it, it does not measure it.
        #expect(result.fixes[1].altitudeMSL == nil)
        // No position without a fix, even when the invalid RMC still carries one.
        #expect(result.fixes[3].latitude == nil)
        #expect(!result.fixes[3].hasPosition)
    }

    @Test func believesTheReceiversTwoDOverAHeldGGAAltitude() {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,030858.00,4907.85331,N,12243.19743,W,1,03,9.97,516.7,M,-16.7,M,,",
            "GPGSA,A,2,28,04,02,,,,,,,,,,10.02,9.97,1.00",
            "GPRMC,030858.00,A,4907.85331,N,12243.19743,W,1.049,323.14,100806,,,A"
        ))
        #expect(result.fixes.map(\.mode) == [.twoD])
    }

    @Test func readsATwoDThatItsOwnGSAContradictsAsThreeD() {
        // Seven satellites and a VDOP of 0.8: the receiver solved altitude, whatever its mode field says.
        let result = NMEA.read(NMEA.lines(
            "GPGGA,022021.00,3644.759368,S,17444.072860,E,1,07,1.1,56.1,M,37.0,M,,",
            "GPRMC,022021.00,A,3644.759368,S,17444.072860,E,0.0,301.9,071020,18.3,E,A,V",
            "GPGSA,A,2,06,07,11,19,22,28,30,,,,,,1.4,1.1,0.8,1"
        ))
        #expect(result.fixes.map(\.mode) == [.threeD])
    }

    @Test func carriesAnEarlierGSAOnlyWhileItStillDescribesTheSolution() {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,095307,2712.6486,S,15303.1293,E,1,04,21.1,3.0,M,42.2,M,,",
            "GPGSA,A,2,05,07,12,30,,,,,,,,,34.7,21.1,27.6",
            "GPRMC,095307,A,2712.6486,S,15303.1293,E,1.73,279.46,080407,,,A",
            // Same four satellites and HDOP: the 2D stands.
            "GPGGA,095308,2712.6469,S,15303.1278,E,1,04,21.1,3.0,M,42.2,M,,",
            "GPRMC,095308,A,2712.6469,S,15303.1278,E,2.40,335.10,080407,,,A",
            // Five satellites, another HDOP: that GSA no longer describes the fix; the altitude decides.
            "GPGGA,095309,2712.6444,S,15303.1229,E,1,05,07.5,3.0,M,42.2,M,,",
            "GPRMC,095309,A,2712.6444,S,15303.1229,E,5.19,299.36,080407,,,A"
        ))
        #expect(result.fixes.map(\.mode) == [.twoD, .twoD, .threeD])
    }

    @Test func ignoresAGSAThatListsNoSatellitesAndNoUsableHDOP() throws {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,045922.000,3519.9007,N,13640.2636,E,1,04,2.2,78.6,M,,,,0000",
            "GPGSA,A,3,09,05,14,26,,,,,,,,,2.9,2.2,1.9",
            "GPRMC,045922.000,A,3519.9007,N,13640.2636,E,3.35,194.25,270705,,",
            "GPGSA,A,2,,,,,,,,,,,,,50.0,50.0,50.0",
            "GPRMC,045923.000,A,3519.8998,N,13640.2633,E,3.35,194.25,270705,,"
        ))
        #expect(result.fixes.map(\.mode) == [.threeD, .threeD])
        let last = try #require(result.fixes.last)
        #expect(last.hdop != 50)
    }

    @Test func keepsTheLastModeForEpochsWithOnlyRMC() {
        let result = NMEA.read(NMEA.lines(
            "INGGA,194104,4426.1138,N,07140.5536,W,2,10,0.9,267.9,M,,,,",
            "INZDA,194104,16,09,2006,-05,00",
            "INRMC,194105,A,4426.1142,N,07140.5515,W,5.3,76.8,160906,15.8,W"
        ))
        #expect(result.fixes.map(\.mode) == [.threeD, .threeD])
        #expect(result.fixes[1].time == .iso("2006-09-16T19:41:05Z"))
    }

    @Test func takesTheDateFromRMCAndCarriesItAcrossMidnight() {
        let result = NMEA.read(NMEA.lines(
            "GPRMC,235958,A,5926.000,N,02445.000,E,0.0,0.0,311226,,",
            "GPGGA,235959,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,000000,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,000001.5,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPRMC,000002,A,5926.000,N,02445.000,E,0.0,0.0,010127,,"
        ))
        #expect(result.fixes.map(\.time) == [
            .iso("2026-12-31T23:59:58Z"), .iso("2026-12-31T23:59:59Z"), .iso("2027-01-01T00:00:00Z"),
            .iso("2027-01-01T00:00:01.5Z"), .iso("2027-01-01T00:00:02Z"),
        ])
    }

    @Test func takesTheDateFromZDA() {
        let result = NMEA.read(NMEA.lines(
            "GPZDA,120000.00,29,02,2028,00,00",
            "GPGGA,120000.00,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,"
        ))
        #expect(result.fixes.map(\.time) == [.iso("2028-02-29T12:00:00Z")])
    }

    @Test func leavesTimeOutOfAStreamThatNeverStatesADate() {
        let input = NMEA.lines(
            "GPGGA,235954,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,235958,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,235959,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPGGA,000000,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,"
        )
        let bare = NMEA.read(input)
        #expect(bare.fixes.count == 4)
        #expect(bare.fixes.allSatisfy { $0.time == nil && $0.hasPosition })
        // With a trusted date hint, once the stream has gone five seconds without a date of its own, the nearest
        // day is chosen, on both sides of midnight.
        let hinted = NMEA.read(input, dateHint: .iso("2026-11-23T00:00:05Z"))
        #expect(hinted.fixes.map(\.time) == [nil, nil, .iso("2026-11-22T23:59:59Z"), .iso("2026-11-23T00:00:00Z")])
    }

    @Test func datesAStreamJoinedBetweenItsRMCAndItsGGAByTheReceiverNotByTheHint() {
        // trackd opens a receiver that is already sending (the board booted, or systemd restarted trackd): the first
        // epoch it reads is the tail of one, a GGA without its RMC. A board without a real-time clock has a wrong
        // clock (systemd's build date, fake-hwclock's last save), which must not date that GGA: the next RMC
        // states the date.
        let input = NMEA.lines(
            "GPGGA,080449.00,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPRMC,080450.00,A,5926.000,N,02445.000,E,0.1,0.0,221126,,,A",
            "GPGGA,080450.00,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,",
            "GPRMC,080451.00,A,5926.000,N,02445.000,E,0.1,0.0,221126,,,A",
            "GPGGA,080451.00,5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,"
        )
        let result = NMEA.read(input, dateHint: .iso("2026-04-13T19:38:30Z"))
        #expect(result.fixes.map(\.time) == [nil, .iso("2026-11-22T08:04:50Z"), .iso("2026-11-22T08:04:51Z")])
    }

    @Test func flagsDeadReckoning() {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,100000,5926.000,N,02445.000,E,6,00,,10.0,M,0.0,M,,",
            "GPRMC,100000,A,5926.000,N,02445.000,E,20.0,90.0,221126,,,E",
            "GPRMC,100001,A,5926.000,N,02445.010,E,20.0,90.0,221126,,,E"
        ))
        #expect(result.fixes.map(\.quality) == [.deadReckoning, .deadReckoning])
        #expect(result.fixes.allSatisfy { $0.quality.isDeadReckoning })
    }

    @Test func prefersTheFinerOfTwoPositionsForOneInstant() throws {
        let result = NMEA.read(NMEA.lines(
            "GPGGA,201652.00,3737.6051488,N,12225.6457400,W,1,12,1.5,42.65,M,-32.65,M,,",
            "GPRMC,201652.00,A,3737.605,N,12225.646,W,0.0,67.8,050620,,,A"
        ))
        let fix = try #require(result.fixes.first)
        #expect(abs(fix.latitude! - (37 + 37.6051488 / 60)) < 1e-12)
    }

    @Test func emitsAFixAsSoonAsTheLearnedCycleEndArrives() {
        var reader = NMEAReader()
        var emitted: [Fix] = []
        func feed(_ body: String) -> Int {
            let before = emitted.count
            reader.read(Array((NMEA.sentence(body) + "\r\n").utf8)) { event in
                if case .fix(let fix) = event { emitted.append(fix) }
            }
            return emitted.count - before
        }
        for second in 0..<5 {
            let time = String(format: "1000%02d", second)
            _ = feed("GPRMC,\(time),A,5926.000,N,02445.000,E,0.0,0.0,221126,,")
            _ = feed("GPGGA,\(time),5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,")
            _ = feed("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2")
        }
        // Three cycles ended with GSA: since then a GSA closes its epoch at once, so nothing is left open.
        #expect(emitted.count == 5)
        let time = "100005"
        #expect(feed("GPRMC,\(time),A,5926.000,N,02445.000,E,0.0,0.0,221126,,") == 0)
        #expect(feed("GPGGA,\(time),5926.000,N,02445.000,E,1,08,0.9,10.0,M,0.0,M,,") == 0)
        #expect(feed("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2") == 1)
        #expect(emitted.last?.time == .iso("2026-11-22T10:00:05Z"))
        // A late sentence of the same instant reopens it: it is emitted again, complete, and the end is unlearned.
        #expect(feed("GPGST,100005,5.1,2.0,1.5,45.0,1.2,0.9,2.5") == 0)
        #expect(feed("GPRMC,100006,A,5926.000,N,02445.000,E,0.0,0.0,221126,,") == 1)
        let reemitted = emitted.last
        #expect(reemitted?.time == .iso("2026-11-22T10:00:05Z"))
        #expect(reemitted?.ephSource == .receiver)
        #expect(reemitted?.satellitesUsed == 8)
    }

    @Test func emitsTheSameFixesWithOrWithoutEarlyEmission() {
        var input = ""
        for second in 0..<20 {
            let time = String(format: "1000%02d", second)
            input += NMEA.lines(
                "GPRMC,\(time),A,5926.000,N,02445.\(String(format: "%03d", second)),E,1.0,90.0,221126,,",
                "GPGGA,\(time),5926.000,N,02445.\(String(format: "%03d", second)),E,1,08,0.9,10.0,M,0.0,M,,",
                "GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.5,0.9,1.2"
            )
        }
        var late = NMEAReader.Configuration()
        late.assembly.emitOnCycleEnd = false
        #expect(NMEA.read(input).fixes == NMEA.read(input, configuration: late).fixes)
    }

    @Test func keepsEachFixWhenTheReceiverClockStepsBack() {
        let result = NMEA.read(NMEA.lines(
            "GPRMC,194124,A,4426.1200,N,07140.5143,W,5.2,79.0,160906,,",
            "GPRMC,194111,A,4426.1203,N,07140.5121,W,5.2,81.5,160906,,"
        ))
        #expect(result.fixes.map(\.time) == [.iso("2006-09-16T19:41:24Z"), .iso("2006-09-16T19:41:11Z")])
    }
}
