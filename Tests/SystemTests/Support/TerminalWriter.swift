#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import TrackCore

/// Writes to a receiver's pseudo-terminal (its master, which is non-blocking): the whole text, waiting while the
/// terminal's buffer is full (trackd reading slowly on a busy machine), up to `timeout` seconds in all. It waits by
/// sleeping, not by blocking its thread: a test's thread held for seconds is one of the few the whole suite's tests
/// share (as many as the machine has cores), and the others' waits then run out while nothing happens.
enum TerminalWriter {
    static func write(_ text: String, to descriptor: Int32, timeout: Double = 30) async throws {
        let bytes = Array(text.utf8)
        var offset = 0
        let deadline = MonotonicTime.now.adding(seconds: timeout)
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EINTR else {
                throw SubprocessError("writing to the receiver's terminal: \(String(cString: strerror(errno)))")
            }
            guard MonotonicTime.now < deadline else {
                throw SubprocessError("the receiver's terminal took nothing for \(timeout) s: trackd does not read it")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Writes each of `fixes` as a receiver's epoch when it is due: `origin` is due at `start`, and the drive plays
    /// `pace` times faster than it was driven.
    static func play(_ fixes: ArraySlice<Fix>, origin: UTCTime, pace: Double = 1, from start: MonotonicTime,
                     to descriptor: Int32) async throws {
        for fix in fixes {
            try await start.adding(seconds: fix.time!.seconds(since: origin) / pace).sleepUntil()
            try await write(fix.nmeaEpoch, to: descriptor)
        }
    }
}
