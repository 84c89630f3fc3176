import Foundation
import TrackCore

/// An NMEA recording split into epochs (each from one RMC sentence to the next), with what the harnesses need to
/// know of each: its GPS time, whether it has a position, and its speed.
struct RecordedDrive: Sendable {
    /// One epoch of the recording.
    struct Epoch: Sendable {
        var time: UTCTime
        var hasPosition: Bool
        /// Speed over ground, m/s (0 when the receiver gave none).
        var speed: Double
        /// The epoch's sentences, each with its line ending.
        var text: Substring
    }

    let path: String
    let epochs: [Epoch]

    /// Reads `path`; every epoch must begin with an RMC sentence that has a time and a date.
    init(path: String) throws(HarnessError) {
        self.path = path
        let content: String
        do {
            content = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        var epochs: [Epoch] = []
        var start: String.Index?
        var current: (time: UTCTime, hasPosition: Bool, speed: Double)?
        var index = content.startIndex
        while index < content.endIndex {
            // By bytes: "\r\n" is one Character, in which a search for "\n" finds nothing.
            let end = content.utf8[index...].firstIndex(of: UInt8(ascii: "\n")).map { content.utf8.index(after: $0) }
                ?? content.endIndex
            let line = content[index..<end]
            if line.dropFirst(3).hasPrefix("RMC") {
                if let start, let current {
                    epochs.append(Epoch(time: current.time, hasPosition: current.hasPosition, speed: current.speed,
                                        text: content[start..<index]))
                }
                guard let parsed = RecordedDrive.parseRMC(line) else {
                    throw .badRecording(path: path, line: String(line.prefix(100)))
                }
                start = index
                current = parsed
            }
            index = end
        }
        if let start, let current {
            epochs.append(Epoch(time: current.time, hasPosition: current.hasPosition, speed: current.speed,
                                text: content[start..<content.endIndex]))
        }
        guard epochs.count >= 2 else { throw .badRecording(path: path, line: "fewer than two epochs") }
        self.epochs = epochs
    }

    /// Seconds between epochs (the recording's rate), from its first two.
    var epochInterval: Double { epochs[1].time.seconds(since: epochs[0].time) }

    /// Index of the first epoch later than `time`, if any.
    func firstIndex(after time: UTCTime) -> Int? {
        var low = 0, high = epochs.count
        while low < high {
            let middle = (low + high) / 2
            if epochs[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low < epochs.count ? low : nil
    }

    /// Writes the epochs from `index` on covering `seconds` of GPS time to `output`, as a receiver that kept running
    /// would send them; the range written. Throws when the recording ends before `seconds` are covered.
    func writeSlice(from index: Int, seconds: Double, to output: String) throws(HarnessError) -> Range<Int> {
        let limit = epochs[index].time.adding(seconds: seconds)
        guard let last = epochs.last, last.time >= limit else {
            throw .driveTooShort(path: path, needed: limit.description)
        }
        let end = firstIndex(after: limit) ?? epochs.count
        var text = ""
        for epoch in epochs[index..<end] { text += epoch.text }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            throw .unwritable(path: output, reason: "\(error)")
        }
        return index..<end
    }

    /// Time, position status and speed of an RMC sentence: `$GNRMC,hhmmss.ss,A,lat,N,lon,E,knots,course,ddmmyy,…`.
    static func parseRMC(_ line: Substring) -> (time: UTCTime, hasPosition: Bool, speed: Double)? {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count > 9 else { return nil }
        let clock = fields[1], day = fields[9]
        guard clock.count >= 6, day.count == 6, let h = Int(clock.prefix(2)), let m = Int(clock.dropFirst(2).prefix(2)),
              let s = Double(clock.dropFirst(4)), let dd = Int(day.prefix(2)), let mm = Int(day.dropFirst(2).prefix(2)),
              let yy = Int(day.suffix(2)), let date = CivilDate(year: 2000 + yy, month: mm, day: dd)
        else { return nil }
        let nanoseconds = Int64(h * 3600 + m * 60) * UTCTime.nanosecondsPerSecond + Int64((s * 1e9).rounded())
        let knots = Double(fields[7]) ?? 0
        return (UTCTime(date: date, nanosecondOfDay: nanoseconds), fields[2] == "A", knots * 1852 / 3600)
    }
}
