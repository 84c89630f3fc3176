import Foundation
import TestSupport
import Testing
import TrackCore
import TrackService

/// The exports folder's files by name: which month each belongs to, and what an erasure sets aside.
struct MonthlyExportsTests {
    private static let files = [
        "2026-10.csv", "2026-10-31-trip-7.gpx", "2026-11.csv", "2026-11-02-trip-8.gpx", "2026-11-30-trip-12.gpx",
        "2026-09.gpx",                      // a month's single GPX of a trackd before 2026-11-27
        "2026-11.csv.tmp-123", "notes.txt", "2026-11-02-trip-x.gpx", "2026-13.csv",
    ]

    /// The exports of `folder`, holding the files above.
    private func exports(in folder: TemporaryFolder) throws -> MonthlyExports {
        let directory = folder.file("exports")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in Self.files {
            try Data("x".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
        }
        return MonthlyExports(directory: directory)
    }

    @Test func findsTheMonthsOfTheCSVsTheTripsGPXAndAnOlderTrackdsMonthlyGPX() throws {
        let folder = try TemporaryFolder()
        let exports = try exports(in: folder)
        #expect(exports.months().map(\.description) == ["2026-09-01", "2026-10-01", "2026-11-01"])
    }

    @Test func removesAMonthsCSVAndEveryGPXOfItsTripsAndNothingElse() throws {
        let folder = try TemporaryFolder()
        let exports = try exports(in: folder)
        let removed = exports.remove(months: [CivilDate(year: 2026, month: 11, day: 1)!, CivilDate(year: 2026, month: 9, day: 1)!])
        #expect(removed.map { ($0 as NSString).lastPathComponent }
                == ["2026-09.gpx", "2026-11-02-trip-8.gpx", "2026-11-30-trip-12.gpx", "2026-11.csv"])
        let left = try FileManager.default.contentsOfDirectory(atPath: exports.directory).sorted()
        #expect(left == ["2026-10-31-trip-7.gpx", "2026-10.csv", "2026-11-02-trip-x.gpx", "2026-11.csv.tmp-123",
                         "2026-13.csv", "notes.txt"])
    }

    @Test func namesATripsGPXByItsLocalDateAndNumber() {
        #expect(MonthlyExports.gpxName(date: CivilDate(year: 2026, month: 11, day: 2)!, trip: 8) == "2026-11-02-trip-8.gpx")
    }
}
