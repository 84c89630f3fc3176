import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Dashboard readings: the base, visible gaps, and the calibration")
struct OdometerTests {
    @Test func theFirstReadingSetsTheBaseWithoutAnEntry() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let update = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:00:00Z"))
        #expect(update.entry == nil)
        #expect(update.reading.logValue == nil)
        #expect(try await log.odometer() == 48_210_000)
        #expect(try await log.odometerReadings().count == 1)
    }

    @Test func kilometresTheLogMissedBecomeAnUnrecordedEntry() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:00:00Z"))
        try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600)
        // The car was driven 25 km with the logger unplugged.
        let update = try await log.setOdometer(48_241_000, reason: "monthly check", context: TestContext.at("2026-11-21T07:00:00Z"))
        let entry = try #require(update.entry)
        #expect(entry.source == .unrecorded)
        #expect(entry.kind == .unclassified)
        #expect(entry.odometerStart == 48_216_000)
        #expect(entry.odometerEnd == 48_241_000)
        #expect(entry.distance == 25_000)
        #expect(update.reading.gapTripID == entry.id)
        #expect(update.calibrationAfter == nil, "6 km of GPS trips are too few to calibrate")
        #expect(try await log.odometer() == 48_241_000)
        let next = try await recordTrip(in: log, start: "2026-11-21T08:00:00Z", seconds: 60)
        #expect(next.odometerStart == 48_241_000)
    }

    @Test func aReadingBelowTheLogBecomesACorrection() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(1_000_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:00:00Z"))
        try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600)
        let update = try await log.setOdometer(1_005_800, reason: "service", context: TestContext.at("2026-11-21T07:00:00Z"))
        let entry = try #require(update.entry)
        #expect(entry.source == .correction)
        #expect(entry.distance == -200)
        #expect(entry.reportedTenths.distance == -2)
    }

    @Test func aReadingLowerThanTheLastOneIsRefused() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:00:00Z"))
        await #expect {
            try await log.setOdometer(48_200_000, reason: "typo?", context: TestContext.at("2026-11-21T07:00:00Z"))
        } throws: { "\($0)".contains("lower than the last reading, 48210.0 km") }
        await #expect { try await log.setOdometer(48_300_000, reason: "", context: TestContext.at("2026-11-21T07:00:00Z")) }
            throws: { "\($0)".contains("needs a reason") }
        #expect(try await log.odometerReadings().count == 1)
    }

    @Test func twoReadingsAroundEnoughGPSDrivingSetTheCalibration() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(20_000_000, reason: "initial reading", context: TestContext.at("2026-11-20T06:00:00Z"))
        // 3 × 10 km measured by GPS; the dashboard shows 30.6 km: the wheels count 2% more.
        for hour in [10, 12, 14] { try await recordTrip(in: log, start: "2026-11-20T\(hour):00:00Z", seconds: 1000) }
        let update = try await log.setOdometer(20_030_600, reason: "check", context: TestContext.at("2026-11-20T18:00:00Z"))
        #expect(update.calibrationBefore == 1)
        #expect(update.calibrationAfter == 1.02)
        #expect(update.entry?.distance == 600, "the difference so far is still made visible")
        #expect(try await log.profile().calibrationFactor == 1.02)
        let next = try await recordTrip(in: log, start: "2026-11-21T08:00:00Z", seconds: 1000)
        #expect(abs(next.distance - 10_200) < 1e-6, "new trips use the new factor")
        let history = try await log.revisions()
        #expect(history.contains { $0.field == "calibration_factor" && $0.oldValue == "1.0" && $0.newValue == "1.02" })
    }

    @Test func aLargeDifferenceIsNotTakenForCalibration() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(20_000_000, reason: "initial reading", context: TestContext.at("2026-11-20T06:00:00Z"))
        for hour in [10, 12, 14] { try await recordTrip(in: log, start: "2026-11-20T\(hour):00:00Z", seconds: 1000) }
        let update = try await log.setOdometer(20_045_000, reason: "check", context: TestContext.at("2026-11-20T18:00:00Z"))
        #expect(update.calibrationAfter == nil)
        #expect(update.calibrationNote.contains("unrecorded driving"))
        #expect(update.entry?.distance == 15_000)
        #expect(try await log.profile().calibrationFactor == 1)
    }

    @Test func eachTripSaysWhereItsOdometerReadingsCameFromAndTheChainCoversIt() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let before = try await recordTrip(in: log, start: "2026-11-20T07:00:00Z", seconds: 60)
        #expect(before.odometerStart == nil && before.odometerStartSource == nil && before.odometerEndSource == nil,
                "no odometer yet: nothing to say where it came from")
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:30:00Z"))
        let typed = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600)
        #expect(typed.odometerStart == 48_210_000 && typed.odometerStartSource == .dashboard)
        #expect(typed.odometerEnd == 48_216_000 && typed.odometerEndSource == .gps)
        let carried = try await recordTrip(in: log, start: "2026-11-20T09:00:00Z", seconds: 60)
        #expect(carried.odometerStart == 48_216_000 && carried.odometerStartSource == .gps)

        // Read from the car at both ends: the car's kilometres, beside the GPS distance as measured.
        let car = try await recordTrip(in: log, start: "2026-11-20T10:00:00Z", seconds: 600,
                                       carOdometer: (start: 48_216_600, end: 48_222_700))
        #expect(car.odometerStart == 48_216_600 && car.odometerStartSource == .car)
        #expect(car.odometerEnd == 48_222_700 && car.odometerEndSource == .car)
        #expect(car.distance == 6_000, "the GPS distance stays as the cross-check")
        #expect(car.reportedTenths.distance == 61, "the report's kilometres are the car's")
        let next = try await recordTrip(in: log, start: "2026-11-20T11:00:00Z", seconds: 60)
        #expect(next.odometerStart == 48_222_700 && next.odometerStartSource == .car, "carried on from the car's reading")
        // A reading below the start is not the car's odometer: the end is the start plus the distance.
        let odd = try await recordTrip(in: log, start: "2026-11-20T12:00:00Z", seconds: 60, carOdometer: (nil, 1_000))
        #expect(odd.odometerEnd == 48_223_900 && odd.odometerEndSource == .gps)

        let stored = try await log.trips(dates: nil)
        #expect(stored.map(\.odometerEndSource) == [nil, .gps, .gps, .car, .gps, .gps])
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        // The sources are covered by the chain: changed behind trackd's back, the log no longer verifies.
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE trip SET odometer_end_source = 'dashboard' WHERE id = \(car.id.rawValue)")
        #expect(!(try await log.verify()).isIntact)
    }

    @Test func aTripThatDidNotStartAtTheCarsReadingEndsAtItOnlyWhenItsKilometresReachIt() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:30:00Z"))
        // 6 km by GPS, the car 6.05 km on from the dashboard's reading: the car's end.
        let agreeing = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600, carOdometer: (nil, 48_216_050))
        #expect(agreeing.odometerStartSource == .dashboard)
        #expect(agreeing.odometerEnd == 48_216_050 && agreeing.odometerEndSource == .car)
        // 10 km more on the car than the trip drove (the car lent out before it, trackd started before the adapter
        // read the car): the trip's end is its start and its kilometres, and the car's reading makes the 10 km an
        // entry of their own when it is next taken, not kilometres of this trip.
        _ = try await log.setOdometer(48_220_000, reason: "dashboard", context: TestContext.at("2026-11-20T08:30:00Z"))
        let short = try await recordTrip(in: log, start: "2026-11-20T09:00:00Z", seconds: 600, carOdometer: (nil, 48_236_000))
        #expect(short.odometerStart == 48_220_000 && short.odometerStartSource == .dashboard)
        #expect(short.odometerEnd == 48_226_000 && short.odometerEndSource == .gps)
        let taken = try await log.setOdometer(48_236_000, reason: "read from the car", context: TestContext.at("2026-11-20T10:00:00Z"),
                                              source: .car)
        #expect(taken.entry?.source == .unrecorded && taken.entry?.distance == 10_000)
        // A start read from the car takes the car's end whatever GPS measured (the car's own kilometres).
        let car = try await recordTrip(in: log, start: "2026-11-20T11:00:00Z", seconds: 600,
                                       carOdometer: (48_236_000, 48_243_000))
        #expect(car.odometerEnd == 48_243_000 && car.odometerEndSource == .car)
    }

    @Test func theCarsOdometerOverTripsProposesACalibrationThatCalibrateTakesWithARevision() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        #expect(try await log.odometerStatus().proposalNote == nil, "no trips from the car: nothing to say")
        // Trips of 8 km by GPS over which the car's odometer counts 8.1 km.
        var odometer = 48_000_000.0
        for (index, hour) in ["08", "10", "12"].enumerated() {
            try await recordTrip(in: log, start: "2026-11-20T\(hour):00:00Z", seconds: 800,
                                 carOdometer: (start: odometer, end: odometer + 8_100))
            odometer += 8_100
            let status = try await log.odometerStatus()
            if index < 2 {
                #expect(status.proposedCalibration == nil)
                #expect(status.proposalNote?.contains("only \((index + 1) * 8).0 km") == true, "\(status.proposalNote ?? "")")
                await #expect(throws: StoreError.self) {
                    _ = try await log.acceptCalibration(reason: nil, context: TestContext.at("2026-11-20T13:00:00Z"))
                }
            } else {
                let proposal = try #require(status.proposedCalibration)
                #expect(proposal.factor == 1.0125)
                #expect(proposal.trips == 3 && proposal.firstTrip == 1 && proposal.lastTrip == 3)
                #expect(status.calibrationFactor == 1, "proposed, not applied")
            }
        }
        let update = try await log.acceptCalibration(reason: "November", context: TestContext.at("2026-11-20T18:00:00Z"))
        #expect(update.before == 1 && update.after == 1.0125)
        #expect(try await log.profile().calibrationFactor == 1.0125)
        let revision = try #require(try await log.revisions().last)
        #expect(revision.field == "calibration_factor" && revision.oldValue == "1.0" && revision.newValue == "1.0125")
        #expect(revision.reason == "November: the car's odometer 24.3 km against 24.0 km measured by GPS over 3 trips (1–3)",
                "\(revision.reason)")
        // A trip without the car's readings uses it; taking it again changes nothing and says so.
        let next = try await recordTrip(in: log, start: "2026-11-21T08:00:00Z", seconds: 1000)
        #expect(abs(next.distance - 10_125) < 1e-6)
        await #expect(throws: StoreError.self) {
            _ = try await log.acceptCalibration(reason: nil, context: TestContext.at("2026-11-21T09:00:00Z"))
        }
        #expect(try await log.verify().isIntact)
    }

    @Test func aCarThatDiffersFromGPSByMoreThanACalibrationCanIsNotProposed() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        var odometer = 48_000_000.0
        for hour in ["08", "10", "12"] {
            try await recordTrip(in: log, start: "2026-11-20T\(hour):00:00Z", seconds: 800,
                                 carOdometer: (start: odometer, end: odometer + 9_000))
            odometer += 9_000
        }
        let status = try await log.odometerStatus()
        #expect(status.proposedCalibration == nil)
        #expect(status.proposalNote?.contains("differ by 12.5 %") == true, "\(status.proposalNote ?? "")")
    }
}
