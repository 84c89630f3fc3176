import TrackCore
import TrackReports

/// The CSV export of a report, read back strictly: the header, the trip rows and the totals rows, by column name.
struct ParsedCSV {
    let text: String
    let header: [String]
    let records: [[String]]

    /// Renders `report` and reads it back; throws if the text is not RFC 4180 or lacks the byte-order mark.
    init(_ report: MileageReport) throws {
        text = try CSVExport.render(report)
        guard text.unicodeScalars.first == "\u{FEFF}" else {
            throw StrictCSVReader.SyntaxError(record: 0, field: 0, problem: "no byte-order mark")
        }
        let all = try StrictCSVReader.records(String(text.unicodeScalars.dropFirst()))
        header = all.first ?? []
        records = Array(all.dropFirst())
    }

    /// The rows of trips (not totals).
    var tripRows: [[String: String]] { rows.filter { $0["id"] != "total" } }

    /// The totals rows.
    var totalRows: [[String: String]] { rows.filter { $0["id"] == "total" } }

    /// Every record after the header as a dictionary by column name.
    var rows: [[String: String]] {
        records.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }
}

/// Tenths of a kilometre from text such as `12345.6` or `-0.4`; `nil` for anything else.
func tenths(_ text: String?) -> Int64? {
    guard var text, !text.isEmpty else { return nil }
    let negative = text.hasPrefix("-")
    if negative { text.removeFirst() }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count == 1, let whole = Int64(parts[0]), let tenth = Int64(parts[1]),
          parts[0].allSatisfy(\.isNumber)
    else { return nil }
    let value = whole * 10 + tenth
    return negative ? -value : value
}
