import TrackCore

/// Renders a mileage report in any of the export formats.
public enum ReportRenderer {
    /// The text of `report` in `format`, UTF-8 when written out (the CSV's begins with a byte-order mark); throws
    /// for a profile whose time zone is unknown or a number that JSON cannot hold.
    public static func render(_ report: MileageReport, as format: ReportFormat) throws(ReportError) -> String {
        switch format {
        case .csv: try CSVExport.render(report)
        case .gpx: GPXExport.render(report)
        case .geojson: try GeoJSONExport.render(report)
        case .html: try HTMLReport.render(report)
        }
    }
}
