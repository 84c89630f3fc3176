#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// A GNSS receiver on a serial port (USB CDC-ACM, a USB-serial adapter, a UART), read raw at a fixed baud rate.
///
/// The port is opened exclusively (see `SerialPort`) in raw 8N1 mode without flow control. Unplugging is not an
/// error: the source reports `.lost` once, tries the same path again every 0.5 s (backing off to 2 s) and reports
/// `.connected` when the device is back, reading on with a fresh reader. A device that is missing at start, busy
/// or not yet accessible is retried the same way; only an unsupported baud rate or a path that is not a serial
/// device ends `run` with an error. When the input goes quiet for 0.5 s the open epoch is delivered, so that the
/// last fix before the receiver stops talking is not held back.
///
/// Receivers that send only GGA never state a date; while the system clock looks set (after 2024-01-01) the
/// reader is given it as a date hint, so that such fixes still get a full time. Receivers that send RMC or ZDA
/// are dated by the receiver alone.
public struct SerialSource: FixSource {
    public let path: String
    public let baud: Int
    public let configuration: NMEAReader.Configuration

    public init(path: String, baud: Int, configuration: NMEAReader.Configuration = NMEAReader.Configuration()) {
        self.path = path
        self.baud = baud
        self.configuration = configuration
    }

    public var description: String { SourceAddress.serial(path: path, baud: baud).description }

    public func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws {
        guard SerialPort.speed(forBaud: baud) != nil else { throw SerialPortError.unsupportedBaud(baud) }
        let path = self.path
        let baud = self.baud
        let configuration = self.configuration
        try await BlockingThread.run(name: "trackd-serial") { stop in
            var session = SerialSession(path: path, baud: baud, configuration: configuration, deliver: deliver)
            try session.run(stop)
        }
    }
}

/// The read loop of one `SerialSource.run`, on its own thread.
private struct SerialSession {
    /// How long the input must be quiet before the open epoch is emitted.
    static let quietInterval = 0.5
    /// The shortest time between two reads of a receiver that talks faster than that (see `read`).
    static let readSpacing = 0.2
    /// The most read at once (the line discipline hands over at most 4 KiB per read).
    static let readSize = 4096
    /// A read of at least this much is followed at once by the next: the receiver sends more than a pause can hold.
    static let torrent = 2048
    /// The first and the longest wait between attempts to open the device.
    static let firstRetry = 0.5
    static let longestRetry = 2.0
    /// A system clock before this (2024-01-01T00:00:00Z) has not been set and gives no date hint.
    static let earliestPlausibleClock = UTCTime(nanosecondsSinceEpoch: 1_704_067_200 * UTCTime.nanosecondsPerSecond)

    let path: String
    let baud: Int
    let configuration: NMEAReader.Configuration
    let deliver: @Sendable (SourceEvent) -> Void

    /// Why the device is unusable now, if it is; `.lost` is delivered again only when this changes.
    private var outage: Outage?

    init(path: String, baud: Int, configuration: NMEAReader.Configuration,
         deliver: @escaping @Sendable (SourceEvent) -> Void) {
        self.path = path
        self.baud = baud
        self.configuration = configuration
        self.deliver = deliver
    }

    /// Kinds of outage: one `.lost` per kind, so that a pulled plug is reported once while it stays pulled.
    private enum Outage: Equatable {
        case absent
        case permission
        case busy
        case other
    }

    mutating func run(_ stop: StopSignal) throws(SerialPortError) {
        deliver(.state(.connecting))
        while !stop.isStopped {
            guard let port = try openWhenPresent(stop) else { return }
            deliver(.state(.connected(connectionDetail())))
            outage = nil
            let reason = read(port, stop)
            port.close()
            guard let reason, !stop.isStopped else { return }
            report(.absent, "device \(path) unplugged (\(reason))")
        }
    }

    /// Opens the device, retrying with backoff until it opens; `nil` if stopped first.
    private mutating func openWhenPresent(_ stop: StopSignal) throws(SerialPortError) -> SerialPort? {
        var delay = SerialSession.firstRetry
        while !stop.isStopped {
            do throws(SerialPortError) {
                return try SerialPort(path: path, baud: baud)
            } catch {
                guard error.isRetryable else { throw error }
                switch error {
                case .notPresent, .vanished: report(.absent, error.description)
                case .permissionDenied: report(.permission, error.description)
                case .inUse: report(.busy, error.description)
                default: report(.other, error.description)
                }
            }
            guard stop.sleep(seconds: delay) else { return nil }
            delay = min(delay * 2, SerialSession.longestRetry)
        }
        return nil
    }

    /// Delivers `.lost` unless an outage of the same kind was already reported.
    private mutating func report(_ kind: Outage, _ reason: String) {
        guard outage != kind else { return }
        outage = kind
        deliver(.state(.lost(reason)))
    }

    /// "/dev/gps0 (/dev/ttyACM0) at 9600 baud": the path, what a link resolves to, and the speed.
    private func connectionDetail() -> String {
        var name = path
        if let resolved = realpath(path, nil) {
            let target = String(cString: resolved)
            free(resolved)
            if target != path { name += " (\(target))" }
        }
        return "\(name) at \(baud) baud"
    }

    /// Reads until the device vanishes (returns why) or a stop is requested (returns `nil`).
    ///
    /// A receiver that talks fast (a 10 Hz epoch, or a slow one arriving in USB packets and UART bursts) is read
    /// at most every `readSpacing`: after a read the thread pauses until then and takes everything that gathered in
    /// one go, so it wakes five times a second instead of once per burst. Input counts as fast when it came less
    /// than `readSpacing` after the thread began to wait for it; a receiver that is quiet after a pause is waited
    /// for as usual, so a 1 Hz receiver that sends its epoch at once costs no extra wake; a read of `torrent` bytes
    /// or more is followed at once by the next, so a torrent is never throttled.
    private func read(_ port: borrowing SerialPort, _ stop: StopSignal) -> String? {
        var reader = NMEAReader(configuration: configuration)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SerialSession.readSize, alignment: 16)
        defer { buffer.deallocate() }
        let deliver = self.deliver
        let forward: (NMEAReader.Event) -> Void = { event in
            switch event {
            case .fix(let fix): deliver(.fix(fix, receivedAt: MonotonicClock.now()))
            case .problem(let diagnostic): deliver(.problem(diagnostic))
            }
        }
        var lastInput = MonotonicClock.now()
        var epochOpen = false
        /// Whether the input comes faster than `readSpacing` (then the next read waits until `lastInput` + spacing).
        var fast = false
        var descriptors = [
            pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !stop.isStopped {
            var timeout = 1.0
            if epochOpen {
                timeout = max(0, SerialSession.quietInterval - MonotonicClock.now().seconds(since: lastInput))
            }
            // After a pause, only look: what gathered is read now; if nothing did, the receiver is waited for.
            var pausedForInput = false
            if fast {
                let pause = SerialSession.readSpacing - MonotonicClock.now().seconds(since: lastInput)
                if pause > 0 && !stop.sleep(seconds: pause) { return nil }
                timeout = 0
                pausedForInput = true
            }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let polled = MonotonicClock.now()
            let ready = poll(&descriptors, 2, Int32((timeout * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return "poll failed: \(Errno(rawValue: errno).description)"
            }
            if stop.isStopped { return nil }
            let events = Int32(descriptors[0].revents)
            if ready == 0 || events == 0 {
                if pausedForInput { fast = false }
                if epochOpen && MonotonicClock.now().seconds(since: lastInput) >= SerialSession.quietInterval {
                    reader.flush(forward)
                    epochOpen = false
                }
                continue
            }
            if events & POLLNVAL != 0 {
                reader.flush(forward)
                return "descriptor no longer valid"
            }
            let hungUp = events & (POLLHUP | POLLERR) != 0
            if events & POLLIN != 0 || hungUp {
                let count = Glibc.read(port.descriptor, buffer.baseAddress, buffer.count)
                if count > 0 {
                    if let hint = SerialSession.dateHint() { reader.setDateHint(hint) }
                    reader.read(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), forward)
                    lastInput = MonotonicClock.now()
                    epochOpen = true
                    if count >= SerialSession.torrent {
                        fast = false  // More may be waiting: read it at once.
                    } else if !pausedForInput {
                        fast = lastInput.seconds(since: polled) < SerialSession.readSpacing
                    }
                    continue
                }
                let error = count < 0 ? errno : 0
                if count < 0 && (error == EAGAIN || error == EINTR) && !hungUp {
                    if pausedForInput { fast = false }
                    continue
                }
                if count == 0 && !hungUp { continue }  // VMIN = 0: no data yet, not an end.
                reader.flush(forward)
                return count == 0 || error == EAGAIN ? "hang-up" : Errno(rawValue: error).description
            }
        }
        return nil
    }

    /// The system clock as a date hint, if it looks set.
    private static func dateHint() -> UTCTime? {
        let time = WallClock.now()
        return time > earliestPlausibleClock ? time : nil
    }
}
