#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TrackCore
import TrackInput

/// A serial GNSS receiver played by the harness on a pseudo-terminal behind a symbolic link (as udev's
/// /dev/gps-trackd points to /dev/ttyACM0): it sends a recorded drive at `speed` times its pace, epoch by epoch,
/// and can be unplugged (the master closed, the link removed) and plugged in again (a new pseudo-terminal, the same
/// link).
///
/// The drive's clock runs on whatever the receiver does: while it is unplugged or silent its epochs are skipped,
/// as a car drives on. Like a real port, what is sent while nobody has the device open is lost (not kept for later).
/// Blocking; use it from one thread.
final class FaultyReceiver {
    let drive: RecordedDrive
    let link: String
    let speed: Double
    /// The pseudo-terminal now plugged in, if any.
    private(set) var terminal: PseudoTerminal?
    /// The next epoch to send.
    private(set) var cursor: Int
    /// When the first epoch was due.
    private let origin: ContinuousClock.Instant
    /// Bytes not sent because nobody read them (unplugged, not yet opened, buffer full).
    private(set) var droppedBytes = 0
    /// A file that gets a copy of every byte sent, if asked for.
    var capture: FileHandle?

    init(drive: RecordedDrive, link: String, speed: Double) throws(HarnessError) {
        self.drive = drive
        self.link = link
        self.speed = speed
        cursor = 0
        origin = ContinuousClock.now
        try plugIn()
    }

    deinit {
        terminal?.close()
    }

    /// The epoch that is due next (the last one once the drive is over).
    var next: RecordedDrive.Epoch { drive.epochs[min(cursor, drive.epochs.count - 1)] }

    /// Whether the drive has epochs left for `seconds` more of wall time.
    func hasEpochs(for seconds: Double) -> Bool {
        drive.epochs.count - cursor > Int(seconds * speed / drive.epochInterval) + 2
    }

    /// Sends the epochs due within the next `seconds` of wall time, each through `shape` (the epoch's own text by
    /// default); returns the indices sent.
    @discardableResult
    func play(for seconds: Double, shape: (RecordedDrive.Epoch) -> [UInt8] = { Array($0.text.utf8) }) -> Range<Int> {
        let first = cursor
        let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while cursor < drive.epochs.count {
            let due = self.due(cursor)
            guard due < end else { break }
            if due > ContinuousClock.now { sleep(until: due) }
            send(shape(drive.epochs[cursor]))
            cursor += 1
        }
        sleep(until: end)
        return first..<cursor
    }

    /// Skips the epochs whose time has passed (the receiver was silent or away meanwhile).
    func skipToNow() {
        let now = ContinuousClock.now
        while cursor < drive.epochs.count && due(cursor) < now { cursor += 1 }
    }

    /// Sends bytes now, outside the schedule (half a sentence, garbage).
    func send(_ bytes: [UInt8]) {
        guard let terminal, !bytes.isEmpty else {
            droppedBytes += bytes.count
            return
        }
        var written = 0
        while written < bytes.count {
            var descriptor = pollfd(fd: terminal.masterDescriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, 1000)
            if ready < 0 && errno == EINTR { continue }
            // Nobody has the device open (POLLHUP), or it did not take the bytes within a second: lost.
            guard ready > 0, Int32(descriptor.revents) & POLLHUP == 0, Int32(descriptor.revents) & POLLOUT != 0 else { break }
            let count = bytes[written...].withUnsafeBytes { write(terminal.masterDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                written += count
            } else if count < 0 && errno != EAGAIN && errno != EINTR {
                break
            }
        }
        droppedBytes += bytes.count - written
        if written > 0 { capture?.write(Data(bytes[..<written])) }
    }

    /// Unplugs the receiver: the master is closed (what trackd has not read yet is lost) and the link removed.
    func unplug() {
        terminal?.close()
        terminal = nil
    }

    /// Plugs the receiver in: a new pseudo-terminal behind the same link.
    func plugIn() throws(HarnessError) {
        do {
            terminal = try PseudoTerminal(linkPath: link)
        } catch {
            throw .unwritable(path: link, reason: error.description)
        }
    }

    /// When epoch `index` is due.
    private func due(_ index: Int) -> ContinuousClock.Instant {
        let offset = drive.epochs[index].time.seconds(since: drive.epochs[0].time) / speed
        return origin + .milliseconds(Int64(offset * 1000))
    }

    private func sleep(until instant: ContinuousClock.Instant) {
        let wait = instant - ContinuousClock.now
        guard wait > .zero else { return }
        let (seconds, attoseconds) = wait.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
