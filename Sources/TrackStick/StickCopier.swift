import TrackCore
import TrackDigest
import TrackReports

/// What goes onto a stick, from the log through trackd: each month's CSV table, printable report and GPX tracks
/// (exactly what `trackctl export` gives for the month), the receipt of `verify`, and a README.txt; a month at a
/// time, so that a log of years never sits in memory whole.
public struct StickCopier: Sendable {
    /// What a copy came to.
    public struct Result: Sendable {
        public var outcome: StickFolder.Outcome
        /// The chain head the verify receipt names (empty for a log with no chain).
        public var chainHead: String
        /// Whether the log verified intact.
        public var intact: Bool
    }

    public let log: StickLog
    /// `SOURCE_DATE_EPOCH`'s text, fixing the reports' time of making (as for `trackctl export`).
    public let sourceDateEpoch: String?

    public init(log: StickLog, sourceDateEpoch: String?) {
        self.log = log
        self.sourceDateEpoch = sourceDateEpoch
    }

    /// The car's folder under `trackd/`: its plate in capitals, letters, digits and dashes (`AB-123`), else `car`.
    public static func folderName(plate: String?) -> String {
        var name = ""
        for character in (plate ?? "").uppercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                name.append(character)
            } else if !name.isEmpty && name.last != "-" {
                name.append("-")
            }
        }
        while name.last == "-" { name.removeLast() }
        return name.isEmpty ? "car" : String(name.prefix(32))
    }

    /// Brings `folder` up to date with the log: `open`, every month's three files, the receipt and the README,
    /// `finish`.
    public func copy(into folder: inout StickFolder, car: String) async throws(StickError) -> Result {
        try folder.open()
        for month in try await log.months() {
            let report = try await log.report(month: month)
            let stem = LogPeriod.month(year: month.year, month: month.month).description
            for format in [ReportFormat.csv, .html, .gpx] {
                try folder.put(try file("\(stem).\(format.fileExtension)", report, format))
            }
        }
        let verification = try await log.verify()
        let receipt = verification.textLines.joined(separator: "\n") + "\n"
        try folder.put(Self.text("verify.txt", receipt))
        try folder.put(Self.text("README.txt", Self.readme(car: car)))
        let outcome = try folder.finish()
        return Result(outcome: outcome, chainHead: verification.head ?? "", intact: verification.isIntact)
    }

    /// A report's file: fingerprinted as made at the epoch, written as made now (or at `SOURCE_DATE_EPOCH`).
    private func file(_ name: String, _ report: MileageReport, _ format: ReportFormat) throws(StickError) -> StickFile {
        var canonical = report
        canonical.generatedAt = UTCTime(secondsSinceEpoch: 0)
        let fingerprint: String
        let made: MileageReport
        do {
            fingerprint = SHA256.hex(of: Array(try ReportRenderer.render(canonical, as: format).utf8))
            made = try SourceDateEpoch.apply(sourceDateEpoch, to: report)
        } catch {
            throw .cannotRender(file: name, reason: "\(error)")
        }
        return StickFile(name: name, fingerprint: fingerprint) { () throws(StickError) -> [UInt8] in
            do {
                return Array(try ReportRenderer.render(made, as: format).utf8)
            } catch {
                throw .cannotRender(file: name, reason: "\(error)")
            }
        }
    }

    private static func text(_ name: String, _ text: String) -> StickFile {
        let bytes = Array(text.utf8)
        return StickFile(name: name, fingerprint: SHA256.hex(of: bytes)) { () throws(StickError) -> [UInt8] in bytes }
    }

    /// What the folder holds, for whoever opens it on a laptop.
    static func readme(car: String) -> String {
        """
        trackd: the mileage log of the car \(car), copied from its logger

        Each month the log has a trip in has three files here, brought up to date each time this stick is
        plugged into the car (the month still running included):

          YYYY-MM.html  the printable report: open it in any web browser and print it (or save it as PDF);
                        the trips, the odometer, business and private kilometres (or miles), the maps,
                        the history of every change and the check of the log's hash chain
          YYYY-MM.csv   the same trips as a table, for a spreadsheet (LibreOffice, Excel, Numbers)
          YYYY-MM.gpx   where the car went on the trips whose routes are kept (private trips show no route),
                        for a map program

          verify.txt    the check of the whole log against its hash chain when the stick was last plugged
                        in: "intact" and the chain's head (the same head the reports print), or what was
                        altered
          .trackd-manifest  what trackd-stick wrote here, so that it writes only what changed next time

        A file is written under a temporary name (.NAME.partial) and renamed once it is complete: a stick
        pulled out too early holds complete files or none, and the next time finishes the job. Files of
        your own in this folder are left alone; a month erased from the log is removed from the stick.

        Made by trackd-stick \(TrackVersion.string). docs/install.md, "Taking the logs home", says more.

        """
    }
}
