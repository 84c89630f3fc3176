import Foundation
import TestSupport
@testable import TrackCore

/// A zone's offsets as the C library has them, for comparison: `zdump -i` prints the offset at the start of a range
/// of years and each change within it (the local date and time just after it, and the new offset), each line
/// `DATE<TAB>TIME<TAB>OFFSET<TAB>ABBREVIATION[<TAB>1 when daylight saving time]`.
struct SystemZoneOffsets {
    let zone: String
    let initial: Int
    /// Each change: the instant, Unix seconds, and the offset from then on.
    let changes: [(at: Int64, offset: Int)]

    /// The folder of the system's zones.
    static let directory = "/usr/share/zoneinfo"

    /// The bytes of the system's TZif file of `zone`.
    static func file(_ zone: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: "\(directory)/\(zone)") else {
            throw Failure(message: "no \(directory)/\(zone): is Debian's tzdata installed?")
        }
        return Array(data)
    }

    /// The offsets of `zone` (a name under the zoneinfo folder, or an absolute path) from `fromYear` to `untilYear`.
    init(zone: String, fromYear: Int = 1969, untilYear: Int = 2062) throws {
        self.zone = zone
        let run = try runProgram("/usr/bin/zdump", ["-i", "-c", "\(fromYear),\(untilYear)", zone])
        guard run.status == 0 else { throw Failure(message: "zdump -i \(zone): \(run.error)") }
        var initial: Int?
        var changes: [(at: Int64, offset: Int)] = []
        for line in run.output.split(separator: "\n") where !line.hasPrefix("TZ=") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, let offset = Self.seconds(fields[2], signed: true) else {
                throw Failure(message: "zdump -i \(zone) printed an unexpected line: \(line)")
            }
            if fields[0] == "-" {
                initial = offset
                continue
            }
            // The time of day as `hh`, `hh:mm` or `hh:mm:ss`.
            let clock = fields[1].filter { $0 != ":" }
            guard let date = CivilDate(iso8601: fields[0]), let time = Self.seconds(clock, signed: false) else {
                throw Failure(message: "zdump -i \(zone) printed an unexpected line: \(line)")
            }
            changes.append((date.daysSinceEpoch * 86_400 + Int64(time) - Int64(offset), offset))
        }
        guard let initial else { throw Failure(message: "zdump -i \(zone) printed no starting offset") }
        self.initial = initial
        self.changes = changes
    }

    /// The system's offset at `time`.
    func offset(at time: Int64) -> Int {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].at <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initial : changes[low - 1].offset
    }

    /// `hh`, `hhmm` or `hhmmss`, signed (`+0530`, `-11`) where `signed` (zdump's offsets), as seconds.
    static func seconds(_ text: String, signed: Bool) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if signed {
            guard let first = digits.first, first == "+" || first == "-" else { return nil }
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard [2, 4, 6].contains(digits.count), let value = Int(digits) else { return nil }
        let parts = digits.count == 2 ? (value, 0, 0) : digits.count == 4 ? (value / 100, value % 100, 0)
            : (value / 10_000, value / 100 % 100, value % 100)
        return sign * (parts.0 * 3600 + parts.1 * 60 + parts.2)
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
