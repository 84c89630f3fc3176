import TrackCore

/// The time a report says it was made, fixed by `SOURCE_DATE_EPOCH` (the variable of reproducible-builds.org): the
/// same log then gives the same bytes however often and wherever it is exported (docs/reports.md, "Exports").
public enum SourceDateEpoch {
    /// The time that `value` (the variable's text) names; `nil` when it is unset or empty.
    public static func time(_ value: String?) throws(ReportError) -> UTCTime? {
        guard let value, !value.isEmpty else { return nil }
        guard value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber), let seconds = Int64(value),
              seconds <= 253_402_300_799 // 9999-12-31T23:59:59Z
        else { throw .invalidSourceDateEpoch(value) }
        return UTCTime(secondsSinceEpoch: Double(seconds))
    }

    /// `report` with its time of making fixed by `value`, else as it is.
    public static func apply(_ value: String?, to report: MileageReport) throws(ReportError) -> MileageReport {
        guard let time = try time(value) else { return report }
        var fixed = report
        fixed.generatedAt = time
        return fixed
    }
}
