#if canImport(Glibc)
import Glibc
#endif
import TrackCore

/// An ELM327 OBD-II adapter on a serial device or over TCP, talked to as `ELM327Dialogue` says, on a thread of its
/// own; with `auto`, the adapter `OBDAutoSearch` finds.
///
/// Losing the adapter is not an error: an unplugged USB adapter, a Bluetooth link that dropped, a Wi-Fi adapter
/// switched off with the car, or an adapter that stopped answering is reported `.lost` once (with the first reason),
/// tried again every 0.5 s backing off to 5 s, and talked to from the reset on when it is back; an adapter `auto`
/// found and that is unplugged is looked for again. Only a serial address that can never work (an unsupported baud
/// rate, a path that is not a serial device) ends `run` with an error.
public struct OBDSource: Sendable, CustomStringConvertible {
    /// What the source reports, in the order it happened.
    public enum Event: Sendable, Hashable {
        /// The link to the adapter changed.
        case state(SourceState)
        /// The dialogue found something out.
        case dialogue(OBDEvent)
        /// `auto` found the adapter at this address, for this reason; the link's states that follow are its.
        case chosen(OBDAddress, reason: String)
    }

    public let address: OBDAddress
    public let configuration: ELM327Dialogue.Configuration
    /// How `auto` looks.
    public let search: OBDAutoSearch

    public init(address: OBDAddress, configuration: ELM327Dialogue.Configuration = ELM327Dialogue.Configuration(),
                search: OBDAutoSearch = OBDAutoSearch()) {
        self.address = address
        self.configuration = configuration
        self.search = search
    }

    public var description: String { address.description }

    public func run(_ deliver: @escaping @Sendable (Event) -> Void) async throws {
        if case .serial(_, let baud) = address, SerialPort.speed(forBaud: baud) == nil {
            throw SerialPortError.unsupportedBaud(baud)
        }
        let address = self.address
        let configuration = self.configuration
        let search = self.search
        try await BlockingThread.run(name: "trackd-obd") { stop in
            guard address == .auto else {
                var session = OBDSession(address: address, configuration: configuration, deliver: deliver)
                _ = try session.run(stop)
                return
            }
            deliver(.state(.connecting))
            while !stop.isStopped {
                guard let found = search.search(stop: stop, report: { deliver(.state(.lost($0))) }) else { return }
                deliver(.chosen(found.address, reason: found.reason))
                var session = OBDSession(address: found.address, configuration: configuration, deliver: deliver,
                                         untilGone: true)
                guard try session.run(stop) == .gone else { return }
            }
        }
    }
}

/// The loop of one `OBDSource.run`, on its own thread.
private struct OBDSession {
    static let firstRetry = 0.5
    static let longestRetry = 5.0
    static let connectTimeout = 5.0

    /// How a session ended.
    enum End {
        case stopped
        /// The serial device is gone (with `untilGone`).
        case gone
    }

    let address: OBDAddress
    let deliver: @Sendable (OBDSource.Event) -> Void
    /// Whether a serial device that is no longer there ends the session (`auto` looks for the adapter again).
    let untilGone: Bool
    var dialogue: ELM327Dialogue
    /// Whether the current outage was reported: `.lost` once while it lasts, whatever its reasons on the way
    /// (a Wi-Fi adapter's connection closed, then refused while it restarts).
    private var outage = false

    init(address: OBDAddress, configuration: ELM327Dialogue.Configuration,
         deliver: @escaping @Sendable (OBDSource.Event) -> Void, untilGone: Bool = false) {
        self.address = address
        self.deliver = deliver
        self.untilGone = untilGone
        dialogue = ELM327Dialogue(configuration: configuration)
    }

    mutating func run(_ stop: StopSignal) throws(SerialPortError) -> End {
        deliver(.state(.connecting))
        while !stop.isStopped {
            let link: ELM327Link
            switch try openWhenPresent(stop) {
            case .opened(let opened): link = opened
            case .ended(let end): return end
            }
            deliver(.state(.connected(link.detail)))
            outage = false
            dialogue.restart()
            guard let reason = talk(over: link, stop), !stop.isStopped else { return .stopped }
            report(reason)
        }
        return .stopped
    }

    /// What trying to open the link came to.
    private enum Opening {
        case opened(ELM327Link)
        case ended(End)
    }

    /// Opens the link, retrying with backoff until it opens, a stop comes, or (with `untilGone`) the device is gone.
    private mutating func openWhenPresent(_ stop: StopSignal) throws(SerialPortError) -> Opening {
        var delay = OBDSession.firstRetry
        while !stop.isStopped {
            switch address {
            case .serial(let path, let baud):
                do throws(SerialPortError) {
                    return .opened(try ELM327Link(serialPath: path, baud: baud))
                } catch {
                    guard error.isRetryable else { throw error }
                    report(error.description)
                    switch error {
                    case .notPresent, .vanished: if untilGone { return .ended(.gone) }
                    default: break
                    }
                }
            case .tcp(let host, let port):
                do throws(OBDLinkError) {
                    return .opened(try ELM327Link(host: host, port: port, timeout: OBDSession.connectTimeout, stop: stop))
                } catch {
                    if error == .stopped { return .ended(.stopped) }
                    report(error.description)
                }
            case .auto:
                // OBDSource.run finds the adapter first: a session is always for a found address.
                preconditionFailure("an OBD session needs the adapter's own address")
            }
            guard stop.sleep(seconds: delay) else { return .ended(.stopped) }
            delay = min(delay * 2, OBDSession.longestRetry)
        }
        return .ended(.stopped)
    }

    /// Delivers `.lost` unless this outage was reported already.
    private mutating func report(_ reason: String) {
        guard !outage else { return }
        outage = true
        deliver(.state(.lost(reason)))
    }

    /// Holds the dialogue over `link` until the link ends (returns why) or a stop comes (returns `nil`).
    private mutating func talk(over link: ELM327Link, _ stop: StopSignal) -> String? {
        while !stop.isStopped {
            switch dialogue.next(at: MonotonicClock.now()) {
            case .wait(let until):
                switch link.idle(until: until, stop: stop) {
                case nil: return nil
                case .hungUp(let reason): return "adapter \(address) lost: \(reason)"
                case .reply, .timedOut: continue
                }
            case .send(let command, let timeout):
                let events: [OBDEvent]
                switch link.exchange(command, timeout: timeout, stop: stop) {
                case nil: return nil
                case .hungUp(let reason): return "adapter \(address) lost: \(reason)"
                case .reply(let text): events = dialogue.handle(ELM327Reply(text, command: command), at: MonotonicClock.now())
                case .timedOut:
                    events = dialogue.handleTimeout(at: MonotonicClock.now())
                    switch link.resynchronise(timeout: 1, stop: stop) {
                    case nil: return nil
                    case .hungUp(let reason): return "adapter \(address) lost: \(reason)"
                    case .reply, .timedOut: break
                    }
                }
                for event in events {
                    deliver(.dialogue(event))
                    if case .adapterLost(let reason) = event { return "adapter \(address) lost: \(reason)" }
                }
            }
        }
        return nil
    }
}
