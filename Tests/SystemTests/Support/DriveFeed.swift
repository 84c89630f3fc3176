#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// A recorded drive handed to trackd's file source (`file://PATH?speed=N`) through a FIFO, part by part: trackd
/// plays what it has been given at its pace and waits for the rest, so the steps a test takes between the parts last
/// as long as a busy machine makes them, and the drive cannot end under them (as a drive played whole can).
final class DriveFeed: @unchecked Sendable {
    /// The FIFO trackd reads.
    let path: String
    private var descriptor: Int32
    /// The lines not given yet, each with its GPS time of day where it is an RMC.
    private var lines: ArraySlice<(text: String, second: Double?)>

    /// Makes the FIFO at `path` for the drive recorded in `drive`.
    init(_ drive: String, at path: String) throws {
        self.path = path
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else { throw SubprocessError("mkfifo \(path): \(String(cString: strerror(errno)))") }
        // Read and write, so that opening it does not wait for trackd, nor trackd see the end before `finish`. Not
        // blocking: a write to a trackd that died must not wait for ever.
        descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SubprocessError("open \(path): \(String(cString: strerror(errno)))") }
        let text = try String(contentsOfFile: drive, encoding: .utf8)
        lines = ArraySlice(text.components(separatedBy: "\r\n").filter { !$0.isEmpty }.map { ($0, DriveLog.secondOfDay(rmc: $0)) })
    }

    deinit { end() }

    /// Gives trackd the drive's lines up to its first RMC later than `secondOfDay` (UTC), while `reader` runs.
    func give(through secondOfDay: Double, while reader: TestSubprocess) async throws {
        let end = lines.firstIndex { $0.second.map { $0 > secondOfDay } ?? false } ?? lines.endIndex
        let part = lines[..<end].map { $0.text + "\r\n" }.joined()
        lines = lines[end...]
        try await write(part, while: reader)
    }

    /// Gives trackd the rest of the drive and its end, while `reader` runs.
    func finish(while reader: TestSubprocess) async throws {
        let rest = lines.map { $0.text + "\r\n" }.joined()
        lines = []
        try await write(rest, while: reader)
        end()
    }

    /// Ends the drive where it is: trackd reads the end of its file (and ends, as with a recording's end).
    func end() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Writes `text` as trackd takes it (the FIFO holds 64 KiB); gives up when `reader` has ended.
    private func write(_ text: String, while reader: TestSubprocess) async throws {
        var bytes = ArraySlice(Array(text.utf8))
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                guard reader.isRunning else { throw SubprocessError("trackd ended before it read the drive: \(reader.output)") }
                try await Task.sleep(for: .milliseconds(20))
            } else {
                throw SubprocessError("writing to \(path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
