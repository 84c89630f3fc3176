#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// The receiver found by looking: a USB receiver, a HAT on the header's UART, gpsd — the first that talks.
///
/// In that order: `/dev/gps0` (the link trackd's udev rules make for a USB receiver) and `/dev/serial0` (the
/// Raspberry Pi's header UART) are each listened to at 9600, 4800, 38400 and 115 200 baud until two sentences
/// with a good checksum arrive (`NMEAProbe`); a port that stays silent at the first speed is silent at every
/// speed and is not listened to again this round. Then gpsd, taken if it answers. The first that talks is read
/// from then on, exactly as if it had been configured (`SourceEvent.chosen` says which and why, before the chosen
/// source's own events); while none does, the source reports `.lost` with what each place showed (once per
/// different finding) and looks again every `Places.retryAfter` seconds.
///
/// A device another program holds (gpsd has `/dev/gps0`) counts as busy, not as a receiver: gpsd is then found
/// at its turn.
public struct AutoSource: FixSource {
    /// Where to look, and how long to listen.
    public struct Places: Sendable, Hashable {
        /// A USB receiver (trackd's udev rules link it here).
        public var usb = "/dev/gps0"
        /// A HAT on the header's UART (Raspberry Pi OS and trackd's image link it here).
        public var header = "/dev/serial0"
        /// Speeds tried on each port, in this order.
        public var bauds = [9600, 4800, 38400, 115_200]
        /// gpsd's address.
        public var gpsdHost = "localhost"
        public var gpsdPort = 2947
        /// Seconds to listen at one speed before deciding there is no NMEA there.
        public var listenFor = 2.5
        /// Seconds between two rounds when nothing was found.
        public var retryAfter = 5.0

        public init() {}
    }

    public let places: Places
    public let configuration: NMEAReader.Configuration

    public init(places: Places = Places(), configuration: NMEAReader.Configuration = NMEAReader.Configuration()) {
        self.places = places
        self.configuration = configuration
    }

    public var description: String { SourceAddress.auto.description }

    public func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws {
        let places = self.places
        deliver(.state(.connecting))
        let found = try await BlockingThread.run(name: "trackd-auto") { stop in
            AutoSource.search(places, stop: stop, deliver: deliver)
        }
        guard let found, !Task.isCancelled else { return }
        deliver(.chosen(found.address, reason: found.reason))
        try await found.address.makeSource(configuration: configuration).run(deliver)
    }

    /// What a round found: the address to read from and why.
    struct Found: Sendable {
        var address: SourceAddress
        var reason: String
    }

    /// Looks round after round until something talks; `nil` when stopped first.
    static func search(_ places: Places, stop: StopSignal, deliver: (SourceEvent) -> Void) -> Found? {
        var reported: String?
        while !stop.isStopped {
            var seen: [String] = []
            for (path, what) in [(places.usb, "a USB receiver"), (places.header, "the header's UART")] {
                switch probe(path, bauds: places.bauds, listenFor: places.listenFor, stop: stop) {
                case .found(let baud, let verdict):
                    let reason = (["\(verdict) at \(baud) baud on \(path) (\(what))"] + seen).joined(separator: "; ")
                    return Found(address: .serial(path: path, baud: baud), reason: reason)
                case .nothing(let finding):
                    seen.append("\(path): \(finding)")
                case .stopped:
                    return nil
                }
            }
            if gpsdAnswers(host: places.gpsdHost, port: places.gpsdPort) {
                let reason = (["gpsd answers at \(places.gpsdHost):\(places.gpsdPort)"] + seen).joined(separator: "; ")
                return Found(address: .gpsd(host: places.gpsdHost, port: places.gpsdPort), reason: reason)
            }
            seen.append("gpsd: not answering at \(places.gpsdHost):\(places.gpsdPort)")
            let report = "no receiver found: " + seen.joined(separator: "; ")
            if report != reported {
                deliver(.state(.lost(report)))
                reported = report
            }
            guard stop.sleep(seconds: places.retryAfter) else { return nil }
        }
        return nil
    }

    /// What listening to one port showed.
    enum PortFinding {
        case found(baud: Int, NMEAProbe.Verdict)
        /// No receiver there: why, in words that stay the same while nothing changes.
        case nothing(String)
        case stopped
    }

    /// Listens to `path` at each speed until one gives NMEA.
    static func probe(_ path: String, bauds: [Int], listenFor: Double, stop: StopSignal) -> PortFinding {
        var tried: [Int] = []
        for baud in bauds {
            let port: SerialPort
            do throws(SerialPortError) {
                port = try SerialPort(path: path, baud: baud)
            } catch {
                return .nothing(error.finding)
            }
            guard let verdict = listen(port, for: listenFor, stop: stop) else { return .stopped }
            port.close()
            tried.append(baud)
            switch verdict {
            case .nmea: return .found(baud: baud, verdict)
            case .silent: return .nothing("silent at \(baud) baud")
            case .garbage: continue
            }
        }
        return .nothing("no NMEA at \(tried.map(String.init).joined(separator: ", ")) baud")
    }

    /// Reads for up to `seconds` or until the probe is sure; `nil` when stopped.
    private static func listen(_ port: borrowing SerialPort, for seconds: Double, stop: StopSignal) -> NMEAProbe.Verdict? {
        var probe = NMEAProbe()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 16)
        defer { buffer.deallocate() }
        let start = MonotonicClock.now()
        var descriptors = [
            pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !probe.isConclusive {
            let remaining = seconds - MonotonicClock.now().seconds(since: start)
            guard remaining > 0 else { break }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, Int32((remaining * 1000).rounded(.up)))
            if stop.isStopped { return nil }
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let events = Int32(descriptors[0].revents)
            if events & POLLIN != 0 {
                let count = Glibc.read(port.descriptor, buffer.baseAddress, buffer.count)
                if count > 0 {
                    probe.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    continue
                }
            }
            // A hang-up, an error or an end: the port says no more; what it said decides.
            if events & (POLLHUP | POLLERR | POLLNVAL) != 0 { break }
        }
        return probe.verdict
    }

    /// Whether gpsd accepts a connection at `host`:`port`; its version line is not waited for.
    private static func gpsdAnswers(host: String, port: Int) -> Bool {
        var connection = GPSDConnection()
        defer { connection.close() }
        if case .success = connection.open(host: host, port: port) { return true }
        return false
    }
}
