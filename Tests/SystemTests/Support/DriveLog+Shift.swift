import Foundation
import TrackCore
import TestSupport

extension DriveLog {
    /// Writes `path` to `output` as if it had been driven from `start` on: every sentence's UTC time (RMC, GGA, GST,
    /// GLL) and RMC's date moved by the same amount, across midnight and a month's end as a receiver sends them, with
    /// the checksums renewed. The first RMC's instant becomes `start`.
    static func shift(_ path: String, toStart start: UTCTime, output: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first(where: { $0.dropFirst(3).hasPrefix("RMC") }).flatMap(rmcTime) else {
            throw SubprocessError("\(path) has no RMC sentence with a date and a time")
        }
        let offset = start.seconds(since: first)
        var text = ""
        for line in lines {
            var parts = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let type = parts[0].dropFirst(3)
            if type == "RMC", let time = rmcTime(line) {
                let moved = time.adding(seconds: offset)
                parts[1] = stamp(moved)
                let date = moved.date
                parts[9] = String(format: "%02d%02d%02d", date.day, date.month, date.year % 100)
            } else if ["GGA", "GST", "GLL"].contains(type) {
                let index = type == "GLL" ? 5 : 1
                if let second = secondOfDay(field: parts[index]) {
                    let moved = UTCTime(date: CivilDate(year: 2000, month: 1, day: 1)!,
                                        nanosecondOfDay: Int64(second * 1e9)).adding(seconds: offset)
                    parts[index] = stamp(moved)
                } else if !parts[index].isEmpty {
                    throw SubprocessError("\(path): cannot read the time of \(line)")
                }
            }
            let body = parts.joined(separator: ",").dropFirst()
            let checksum = body.utf8.reduce(UInt8(0), ^)
            text += "$\(body)*\(String(format: "%02X", checksum))\r\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: output))
    }

    /// An RMC sentence's instant (its date and time).
    private static func rmcTime(_ line: String) -> UTCTime? {
        let fields = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count > 9, let second = secondOfDay(field: fields[1]), fields[9].count == 6,
              let day = Int(fields[9].prefix(2)), let month = Int(fields[9].dropFirst(2).prefix(2)),
              let year = Int(fields[9].suffix(2)), let date = CivilDate(year: 2000 + year, month: month, day: day)
        else { return nil }
        return UTCTime(date: date, nanosecondOfDay: Int64((second * 1e9).rounded()))
    }

    /// `hhmmss.ss` as seconds since midnight.
    private static func secondOfDay(field: some StringProtocol) -> Double? {
        guard field.count >= 6, let h = Double(field.prefix(2)), let m = Double(field.dropFirst(2).prefix(2)),
              let s = Double(field.dropFirst(4)) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// `hhmmss.ss` of an instant.
    private static func stamp(_ time: UTCTime) -> String {
        let hundredths = (time.nanosecondOfDay + 5_000_000) / 10_000_000
        return String(format: "%02d%02d%02d.%02d", hundredths / 360_000, hundredths / 6000 % 60, hundredths / 100 % 60,
                      hundredths % 100)
    }
}
