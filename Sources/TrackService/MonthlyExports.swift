import FoundationEssentials
import TrackCore
import TrackReports
import TrackStore

/// The plain files the daemon keeps beside the log, for a card reader and a spreadsheet: after each trip, that
/// month's CSV and GPX in `exports/` (`2026-11.csv`, `2026-11.gpx`), each written atomically.
public struct MonthlyExports: Sendable {
    /// The folder (`STATE_DIR/exports`).
    public let directory: String
    /// The formats written.
    public let formats: [ReportFormat]

    public init(directory: String, formats: [ReportFormat] = [.csv, .gpx]) {
        self.directory = directory
        self.formats = formats
    }

    /// The months that have a file in the folder, oldest first.
    public func months() -> [CivilDate] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let months = names.compactMap { name -> CivilDate? in
            guard let format = formats.first(where: { name.hasSuffix(".\($0.fileExtension)") }) else { return nil }
            let stem = name.dropLast(format.fileExtension.count + 1)
            return CivilDate(iso8601: stem + "-01")
        }
        return Set(months).sorted()
    }

    /// Removes the files of `months` (before an erasure: a power cut must not leave a copy of what went); returns
    /// the paths removed.
    public func remove(months: [CivilDate]) -> [String] {
        var removed: [String] = []
        for month in months {
            let period = LogPeriod.month(year: month.year, month: month.month)
            for format in formats {
                let path = "\(directory)/\(period.description).\(format.fileExtension)"
                if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
            }
        }
        return removed
    }

    /// Rewrites the files of the month of `date` from the log; returns the paths written.
    @discardableResult
    public func refresh(month date: CivilDate, from log: MileageLog, now: UTCTime) async throws -> [String] {
        let period = LogPeriod.month(year: date.year, month: date.month)
        let report = try await log.report(period: period, kind: .all, now: now, generator: "trackd \(TrackVersion.string)")
        // Where the car went: for trackd and its group only (FileModes), like the log.
        try FileModes.prepareFolder(directory)
        var written: [String] = []
        for format in formats {
            let path = "\(directory)/\(period.description).\(format.fileExtension)"
            try AtomicFile.write(try ReportRenderer.render(report, as: format).utf8, to: path, mode: FileModes.file)
            written.append(path)
        }
        return written
    }
}
