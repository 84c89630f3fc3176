/// A strict RFC 4180 reader for checking the CSV export: records end with CRLF (the last one too), a field is
/// either plain (no comma, double quote, CR or LF in it) or enclosed in double quotes with inner quotes doubled,
/// and anything else is an error that says where. Libraries such as SwiftCSV accept much more than the RFC
/// (bare LF line ends, stray quotes), so they could not show that the export keeps to it.
enum StrictCSVReader {
    /// Where and why the text is not RFC 4180.
    struct SyntaxError: Error, CustomStringConvertible {
        let record: Int
        let field: Int
        let problem: String
        var description: String { "record \(record + 1), field \(field + 1): \(problem)" }
    }

    /// The records of `text` (which must not start with a byte-order mark: strip it first).
    static func records(_ text: String) throws -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        var records: [[String]] = []
        var record: [String] = []
        var index = 0
        func fail(_ problem: String) -> SyntaxError {
            SyntaxError(record: records.count, field: record.count, problem: problem)
        }
        while index < scalars.count {
            var field = String.UnicodeScalarView()
            if scalars[index] == "\"" {
                index += 1
                while true {
                    guard index < scalars.count else { throw fail("quoted field not closed") }
                    if scalars[index] == "\"" {
                        if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                            field.append("\"")
                            index += 2
                        } else {
                            index += 1
                            break
                        }
                    } else {
                        field.append(scalars[index])
                        index += 1
                    }
                }
            } else {
                while index < scalars.count, scalars[index] != ",", scalars[index] != "\r" {
                    guard scalars[index] != "\"" else { throw fail("double quote inside a plain field") }
                    guard scalars[index] != "\n" else { throw fail("bare LF ends a record (CRLF expected)") }
                    field.append(scalars[index])
                    index += 1
                }
            }
            record.append(String(field))
            guard index < scalars.count else { throw fail("the last record does not end with CRLF") }
            if scalars[index] == "," {
                index += 1
                guard index < scalars.count else { throw fail("a comma ends the text") }
            } else if scalars[index] == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" {
                index += 2
                records.append(record)
                record = []
            } else {
                throw fail("unexpected character U+\(String(scalars[index].value, radix: 16)) after a field")
            }
        }
        return records
    }
}
