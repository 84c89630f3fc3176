import FoundationEssentials
import TrackCore
import TrackReports
import TrackStore

/// The plain files the daemon keeps beside the log, for a card reader and a spreadsheet: each month's trips as CSV
/// (`2026-11.csv`, rewritten after each trip), and each trip's track as GPX (`2026-11-22-trip-42.gpx`, written once
/// when it closes and again only when it changes), each written atomically.
///
/// A trip's track is written once, not with every later trip of its month: a month of one file rewritten after
/// each trip cost the card the whole month's track at each trip's end, and the daemon as much memory.
public struct MonthlyExports: Sendable {
    /// The folder (`STATE_DIR/exports`).
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The months that have a file in the folder, oldest first.
    public func months() -> [CivilDate] {
        Set(names().compactMap(Self.month(ofFile:))).sorted()
    }

    /// Removes the files of `months`, the month's CSV and its trips' GPX (before an erasure: a power cut must not
    /// leave a copy of what went); returns the paths removed.
    public func remove(months: [CivilDate]) -> [String] {
        let months = Set(months.map(\.firstOfMonth))
        var removed: [String] = []
        for name in names() {
            guard let month = Self.month(ofFile: name), months.contains(month) else { continue }
            let path = "\(directory)/\(name)"
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed.sorted()
    }

    /// Rewrites the files of the month of `date` from the log: its CSV and the GPX of each of its trips; returns the
    /// paths written.
    @discardableResult
    public func refresh(month date: CivilDate, from log: MileageLog, now: UTCTime) async throws -> [String] {
        let (path, trips) = try await writeCSV(month: date, from: log, now: now)
        var written = [path]
        for trip in trips {
            written += try await writeGPX(of: trip.id, from: log, now: now)
        }
        try removeMonthlyGPX(of: date)
        return written
    }

    /// Brings the files of one trip up to date: its month's CSV and its own GPX (written, or removed when its route
    /// is not kept or it no longer counts); returns the paths written. A month that still has the single GPX file of
    /// a trackd before 2026-11-27 is written whole instead, once, and that file removed.
    @discardableResult
    public func refresh(trip: LogTrip, from log: MileageLog, now: UTCTime) async throws -> [String] {
        guard let date = trip.date else { return [] }
        if FileManager.default.fileExists(atPath: monthlyGPXPath(of: date)) {
            return try await refresh(month: date, from: log, now: now)
        }
        let (path, _) = try await writeCSV(month: date, from: log, now: now)
        return try await [path] + writeGPX(of: trip.id, from: log, now: now)
    }

    /// The name of a trip's GPX file: its local date and number.
    public static func gpxName(date: CivilDate, trip: TripID) -> String {
        "\(date)-trip-\(trip).gpx"
    }

    // MARK: - Files

    /// The month's CSV, from the trips without their tracks; returns its path and the month's trips.
    private func writeCSV(month date: CivilDate, from log: MileageLog,
                          now: UTCTime) async throws -> (path: String, trips: [LogTrip]) {
        let period = LogPeriod.month(year: date.year, month: date.month)
        let report = try await log.report(period: period, kind: .all, now: now, generator: generator, tracks: false)
        // Where the car went: for trackd and its group only (FileModes), like the log.
        try FileModes.prepareFolder(directory)
        let path = "\(directory)/\(period.description).\(ReportFormat.csv.fileExtension)"
        try AtomicFile.write(try ReportRenderer.render(report, as: .csv).utf8, to: path, mode: FileModes.file)
        return (path, report.trips.map(\.trip))
    }

    /// A trip's GPX: written when the trip counts and its route is kept and drawn, else removed; returns the path
    /// written, if any. Called after `writeCSV`, which has prepared the folder.
    /// The track is read from the log a point at a time, twice (the bounds, then the points), and written as it is
    /// read: a trip of any length takes the memory of a point and the file's 64 KiB buffer, not of its track.
    private func writeGPX(of id: TripID, from log: MileageLog, now: UTCTime) async throws -> [String] {
        let report = try await log.tripReport(id, now: now, generator: generator, track: false)
        guard let entry = report.trips.first, let date = entry.trip.date else { return [] }
        let path = "\(directory)/\(Self.gpxName(date: date, trip: id))"
        let written = try await log.readTrack(id) { reader in
            let points: GPXExport.PointReader = { body in
                guard entry.trip.hasStoredTrack else { return }
                try reader.forEach { try body($0.point, $0.segment) }
            }
            guard try GPXExport.draws(entry, points: points) else { return false }
            try AtomicFile.write(to: path, mode: FileModes.file) { output in
                try GPXExport.write(report, points: points) { try output.write($0) }
            }
            return true
        }
        guard written else {
            try? FileManager.default.removeItem(atPath: path)
            return []
        }
        return [path]
    }

    /// Removes the month's single GPX file an older trackd kept (`2026-11.gpx`), once its trips have their own.
    private func removeMonthlyGPX(of date: CivilDate) throws {
        let path = monthlyGPXPath(of: date)
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    private func monthlyGPXPath(of date: CivilDate) -> String {
        "\(directory)/\(LogPeriod.month(year: date.year, month: date.month)).\(ReportFormat.gpx.fileExtension)"
    }

    private var generator: String { "trackd \(TrackVersion.string)" }

    private func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// The month a file of the folder belongs to: `2026-11.csv`, `2026-11.gpx` (before 2026-11-27) and
    /// `2026-11-22-trip-42.gpx`; `nil` for any other name (a temporary file, say).
    static func month(ofFile name: String) -> CivilDate? {
        let stem: Substring
        if name.hasSuffix(".csv") {
            stem = name.dropLast(4)
        } else if name.hasSuffix(".gpx") {
            let base = name.dropLast(4)
            if let range = base.firstRange(of: "-trip-") {
                guard CivilDate(iso8601: String(base[..<range.lowerBound])) != nil,
                      Int(base[range.upperBound...]) != nil
                else { return nil }
                stem = base.prefix(7)
            } else {
                stem = base
            }
        } else {
            return nil
        }
        return stem.count == 7 ? CivilDate(iso8601: stem + "-01") : nil
    }
}
