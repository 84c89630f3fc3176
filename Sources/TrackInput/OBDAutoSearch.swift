#if canImport(Glibc)
import Glibc
#endif
import TrackCore

/// The OBD-II adapter found by asking (`obd.adapter: auto`): the one trackd's udev rules named, else the first
/// USB-serial port that answers `AT I` with an ELM327's name.
///
/// Most adapters are an ELM327 clone behind a USB-serial chip (CH340, PL2303, FTDI) whose USB ids and name are every
/// other cable's too, a GPS receiver's among them, so no udev rule can tell them apart: asking can. In this order:
/// `/dev/obd-trackd` (the udev rules' name for an adapter that says it is one), then each `ttyUSB*` and `ttyACM*`
/// in `/dev` that is not a receiver's (a `/dev/gps*` link's target, or a port the daemon reads fixes from), asked at
/// 38 400, 9 600 and 115 200 baud. A port that does not answer is asked again after `Places.askAgainAfter` seconds,
/// or at once when its device node is new (plugged in again). A port that cannot be opened (another program holds
/// it; udev has not yet given a new one to `dialout`) is left alone and tried again at the next round.
public struct OBDAutoSearch: Sendable {
    /// Where to look, and how long to wait for an answer.
    public struct Places: Sendable, Hashable {
        /// The folder of the device nodes.
        public var devices = "/dev"
        /// The udev rules' name for an adapter that says it is one, in `devices`.
        public var named = "obd-trackd"
        /// The names of USB-serial ports, in `devices`.
        public var portPrefixes = ["ttyUSB", "ttyACM"]
        /// The names of links to receivers (trackd's GPS udev rules), in `devices`: their targets are not asked.
        public var receiverPrefix = "gps"
        /// Speeds asked at, in this order (most adapters: 38 400; genuine ELM327s strapped: 9 600; STN chips: 115 200).
        public var bauds = [38400, 9600, 115_200]
        /// Seconds to wait for the answer to `AT I` at one speed.
        public var answerWithin = 1.5
        /// Seconds between two rounds while no adapter answers.
        public var retryAfter = 5.0
        /// Seconds before a port that did not answer is asked again.
        public var askAgainAfter = 60.0
        /// Seconds a port that cannot be opened yet is waited for before the search says it found none: a port just
        /// plugged in (or there at boot) is root's until udev has given it to `dialout`, which takes seconds on a
        /// busy board.
        public var settleFor = 10.0

        public init() {}
    }

    /// What a round found: the adapter's address, and why.
    public struct Found: Sendable, Hashable {
        public var address: OBDAddress
        public var reason: String
    }

    public let places: Places
    /// Ports never asked: the receiver's (the daemon's `serial://` source).
    public let excluded: [String]

    public init(places: Places = Places(), excluding excluded: [String] = []) {
        self.places = places
        self.excluded = excluded
    }

    /// Looks round after round until an adapter answers; `nil` when stopped first. While none does, `report` gets
    /// what each port showed, once per different finding.
    func search(stop: StopSignal, report: (String) -> Void) -> Found? {
        // The ports that did not answer: their node then, when, and what they showed (said again while skipped, so
        // that the report stays the same while nothing changes).
        var asked: [String: (node: DeviceNode, at: MonotonicInstant, finding: String)] = [:]
        // Since when each port could not be opened, while it cannot.
        var unopenedSince: [String: MonotonicInstant] = [:]
        var reported: String?
        while !stop.isStopped {
            var seen: [String] = []
            var settling = false
            let named = "\(places.devices)/\(places.named)"
            if DeviceNode(named) != nil {
                switch ask(named, stop: stop) {
                case .answered(let baud, let name):
                    return Found(address: .serial(path: named, baud: baud),
                                 reason: "\(name) answered at \(baud) baud on \(named) (named an adapter by the udev rules)")
                case .stopped:
                    return nil
                case .silent(let finding), .unopened(let finding):
                    // The udev rules know it is one by its own USB name: it is taken, and the dialogue asks on.
                    return Found(address: .serial(path: named, baud: OBDAddress.defaultBaud),
                                 reason: "\(named) is named an adapter by the udev rules (\(finding) yet)")
                }
            }
            let names = entries()
            let receivers = receiverPorts(among: names)
            for port in ports(among: names) {
                let path = "\(places.devices)/\(port)"
                if let receiver = receivers[DeviceNode.resolve(path)] {
                    seen.append("\(path): the receiver's (\(receiver))")
                    continue
                }
                guard let node = DeviceNode(path) else { continue }
                let now = MonotonicClock.now()
                if let earlier = asked[path], earlier.node == node,
                   now.seconds(since: earlier.at) < places.askAgainAfter {
                    seen.append("\(path): \(earlier.finding)")
                    continue
                }
                switch ask(path, stop: stop) {
                case .answered(let baud, let name):
                    let reason = (["\(name) answered at \(baud) baud on \(path)"] + seen).joined(separator: "; ")
                    return Found(address: .serial(path: path, baud: baud), reason: reason)
                case .stopped:
                    return nil
                case .silent(let finding):
                    unopenedSince[path] = nil
                    asked[path] = (node, now, finding)
                    seen.append("\(path): \(finding)")
                case .unopened(let finding):
                    // Not remembered: a port udev has not yet given to dialout, or another program lets go of, is
                    // asked again at the next round; for `settleFor`, before the search says it found none.
                    let since = unopenedSince[path] ?? now
                    unopenedSince[path] = since
                    if now.seconds(since: since) < places.settleFor { settling = true }
                    seen.append("\(path): \(finding)")
                }
            }
            let text = "no OBD-II adapter found: "
                + (seen.isEmpty ? "no USB-serial port in \(places.devices)" : seen.joined(separator: "; "))
            if !settling && text != reported {
                report(text)
                reported = text
            }
            guard stop.sleep(seconds: places.retryAfter) else { return nil }
        }
        return nil
    }

    /// What asking one port showed.
    enum Answer {
        case answered(baud: Int, name: String)
        /// It was asked and is no adapter: what it answered, in words that stay the same while nothing changes.
        case silent(String)
        /// It could not be asked (no permission yet, in use, gone): why.
        case unopened(String)
        case stopped
    }

    /// Asks `path` for its name at each speed.
    func ask(_ path: String, stop: StopSignal) -> Answer {
        var tried: [Int] = []
        for baud in places.bauds {
            let link: ELM327Link
            do throws(SerialPortError) {
                link = try ELM327Link(serialPath: path, baud: baud)
            } catch {
                return .unopened(error.finding)
            }
            tried.append(baud)
            switch link.exchange("AT I", timeout: places.answerWithin, stop: stop) {
            case nil: return .stopped
            case .hungUp: return .unopened("not present")
            case .timedOut: continue
            case .reply(let text):
                if let name = Self.adapterName(in: text) { return .answered(baud: baud, name: name) }
            }
        }
        return .silent("no ELM327 answer at \(tried.map(String.init).joined(separator: ", ")) baud")
    }

    /// The adapter's name in an answer to `AT I` (`ELM327 v1.5`; an echo of the command before it is skipped), or
    /// `nil` when the answer is no ELM327's.
    static func adapterName(in text: String) -> String? {
        for line in text.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
            let words = line.trimmed(of: " \t")
            let upper = words.uppercased()
            if upper.hasPrefix("ELM327") || upper.hasPrefix("ELM 327") || upper.hasPrefix("STN") {
                return String(words.prefix(40))
            }
        }
        return nil
    }

    /// The USB-serial ports in `devices`: by `portPrefixes`' order, then by number (`ttyUSB2` before `ttyUSB10`).
    private func ports(among names: [String]) -> [String] {
        var ports: [(kind: Int, number: Int, name: String)] = []
        for name in names {
            for (kind, prefix) in places.portPrefixes.enumerated() where name.hasPrefix(prefix) {
                if let number = Int(name.dropFirst(prefix.count)), number >= 0 { ports.append((kind, number, name)) }
            }
        }
        return ports.sorted { ($0.kind, $0.number) < ($1.kind, $1.number) }.map(\.name)
    }

    /// The receivers' ports, resolved, each with what makes it a receiver's.
    private func receiverPorts(among names: [String]) -> [String: String] {
        var receivers: [String: String] = [:]
        for path in excluded { receivers[DeviceNode.resolve(path)] = "trackd reads fixes from \(path)" }
        for name in names where name.hasPrefix(places.receiverPrefix) {
            let link = "\(places.devices)/\(name)"
            receivers[DeviceNode.resolve(link)] = link
        }
        return receivers
    }

    /// The names in `devices`, read once a round.
    private func entries() -> [String] {
        guard let folder = opendir(places.devices) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// A device node as it is now: a port plugged in again is a new node (udev makes it anew: another inode).
struct DeviceNode: Equatable {
    let device: UInt64
    let inode: UInt64
    let node: UInt64

    /// The node behind `path` (links followed), or `nil` when there is none.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        node = UInt64(info.st_rdev)
    }

    /// `path` with its links resolved, or `path` itself when it resolves to nothing.
    static func resolve(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

private extension Substring {
    func trimmed(of set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
