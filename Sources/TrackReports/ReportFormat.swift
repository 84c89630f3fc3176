/// A kind of file the mileage log can be exported as.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// A spreadsheet table (RFC 4180), one row per trip and rows for the totals.
    case csv
    /// The tracks for GPS software and maps (GPX 1.1).
    case gpx
    /// The trips as map features (RFC 7946).
    case geojson
    /// A printable, self-contained report for a person or the tax office.
    case html

    /// The file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .gpx: "gpx"
        case .geojson: "geojson"
        case .html: "html"
        }
    }

    /// The IANA media type, with the character set where the type takes one.
    public var mediaType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8; header=present"
        case .gpx: "application/gpx+xml"
        case .geojson: "application/geo+json"
        case .html: "text/html; charset=utf-8"
        }
    }
}
