#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// An open line to an ELM327 adapter, a serial device or a TCP connection, over which one command at a time is
/// sent and its answer read up to the `>` prompt.
final class ELM327Link {
    /// What became of one command.
    enum Exchange {
        /// The text before the prompt (NUL bytes, which some clones send, taken away).
        case reply(String)
        /// No prompt within the timeout.
        case timedOut
        /// The link ended (unplugged, the connection closed), with why.
        case hungUp(String)
    }

    /// The most text kept from one answer: a VIN is about 80 bytes, noise beyond this is cut.
    static let replyLimit = 4096

    /// The serial port, kept open (and exclusive) while the link lives; `nil` for TCP.
    private let port: SerialPort?
    /// The descriptor to read and write, non-blocking.
    let descriptor: Int32
    /// Where the adapter is, for the log: "/dev/obd0 (/dev/ttyUSB0) at 38400 baud", "192.168.0.10:35000".
    let detail: String

    /// Opens a serial adapter (USB, Bluetooth rfcomm) exclusively, raw 8N1.
    init(serialPath path: String, baud: Int) throws(SerialPortError) {
        let port = try SerialPort(path: path, baud: baud)
        descriptor = port.descriptor
        self.port = consume port
        let target = DeviceNode.resolve(path)
        detail = "\(path)\(target != path ? " (\(target))" : "") at \(baud) baud"
    }

    /// Connects to a Wi-Fi adapter, giving up after `timeout` seconds or at a stop.
    init(host: String, port number: Int, timeout: Double, stop: StopSignal) throws(OBDLinkError) {
        descriptor = try TCPConnection.connect(host: host, port: number, timeout: timeout, stop: stop)
        port = nil
        detail = "\(host.contains(":") ? "[\(host)]" : host):\(number)"
    }

    deinit {
        if port == nil { _ = Glibc.close(descriptor) }
    }

    /// Sends `command` and a carriage return, then reads up to the prompt; `nil` if a stop came first.
    ///
    /// Whatever was waiting before the command (a late answer to an earlier one, noise) is read and dropped first,
    /// so that it is never taken for this command's answer.
    func exchange(_ command: String, timeout: Double, stop: StopSignal) -> Exchange? {
        if case .hungUp(let reason) = drain() { return .hungUp(reason) }
        let deadline = MonotonicClock.now().adding(seconds: timeout)
        var bytes = Array((command + "\r").utf8)
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes.removeFirst(written)
                continue
            }
            let error = errno
            guard written < 0, error == EAGAIN || error == EINTR else {
                return .hungUp("cannot write to the adapter: \(Errno(rawValue: error).description)")
            }
            switch wait(for: Int16(POLLOUT), until: deadline, stop: stop) {
            case .stopped: return nil
            case .timedOut: return .timedOut
            case .hungUp(let reason): return .hungUp(reason)
            case .ready: continue
            }
        }
        var answer: [UInt8] = []
        var endOfInput = false
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            switch wait(for: Int16(POLLIN), until: deadline, stop: stop) {
            case .stopped: return nil
            case .timedOut: return .timedOut
            case .hungUp(let reason): return .hungUp(reason)
            case .ready(let hungUp): endOfInput = hungUp
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let error = errno
                if (error == EAGAIN || error == EINTR) && !endOfInput { continue }
                return .hungUp(Errno(rawValue: error).description)
            }
            if count == 0 {
                // A TCP connection's end; a serial port (VMIN = 0) reads 0 while there is nothing yet.
                if port == nil || endOfInput { return .hungUp(port == nil ? "the adapter closed the connection" : "device unplugged") }
                continue
            }
            for byte in buffer[0..<count] where byte != 0 {
                if byte == UInt8(ascii: ">") { return .reply(String(decoding: answer, as: UTF8.self)) }
                if answer.count < Self.replyLimit { answer.append(byte) }
            }
        }
    }

    /// After a command got no prompt in time: a lone carriage return, which interrupts whatever the adapter still does
    /// (it answers `STOPPED`) and brings back its prompt, waited for up to `timeout`; what comes is dropped. Without
    /// this, the next command would be the character that interrupts, and be lost. An adapter already at its prompt
    /// repeats its last command for a lone carriage return: that answer is dropped too. `nil` if a stop came.
    func resynchronise(timeout: Double, stop: StopSignal) -> Exchange? {
        exchange("", timeout: timeout, stop: stop)
    }

    /// Waits until `deadline` while nothing is asked; input meanwhile is dropped. `.hungUp` if the link ended,
    /// `nil` if a stop came.
    func idle(until deadline: MonotonicInstant, stop: StopSignal) -> Exchange? {
        while true {
            switch wait(for: Int16(POLLIN), until: deadline, stop: stop) {
            case .stopped: return nil
            case .timedOut: return .timedOut
            case .hungUp(let reason): return .hungUp(reason)
            case .ready(let hungUp):
                if case .hungUp(let reason) = drain() { return .hungUp(reason) }
                if hungUp { return .hungUp(port == nil ? "the adapter closed the connection" : "device unplugged") }
                // A serial port that polls readable but reads nothing (VMIN = 0) must not spin.
                if MonotonicClock.now() < deadline { _ = stop.sleep(seconds: 0.05) }
            }
        }
    }

    /// Reads and drops what is waiting; `.hungUp` if the link ended.
    private func drain() -> Exchange {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count == 0 {
                return port == nil ? .hungUp("the adapter closed the connection") : .reply("")
            }
            let error = errno
            if error == EAGAIN || error == EINTR { return .reply("") }
            return .hungUp(Errno(rawValue: error).description)
        }
    }

    private enum Readiness {
        /// The events asked for; `hungUp` when the other end is gone too (what is left can still be read).
        case ready(hungUp: Bool)
        case timedOut
        case stopped
        case hungUp(String)
    }

    /// Polls the link for `events` and the stop signal until `deadline`.
    private func wait(for events: Int16, until deadline: MonotonicInstant, stop: StopSignal) -> Readiness {
        var descriptors = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if stop.isStopped { return .stopped }
            let remaining = deadline.seconds(since: MonotonicClock.now())
            if remaining <= 0 { return .timedOut }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, Int32((remaining * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .hungUp("poll failed: \(Errno(rawValue: errno).description)")
            }
            if stop.isStopped { return .stopped }
            let revents = Int32(descriptors[0].revents)
            if revents & POLLNVAL != 0 { return .hungUp("descriptor no longer valid") }
            let hungUp = revents & (POLLHUP | POLLERR) != 0
            if revents & Int32(events) != 0 || hungUp && events == Int16(POLLIN) { return .ready(hungUp: hungUp) }
            if hungUp { return .hungUp(port == nil ? "the connection to the adapter broke" : "device unplugged") }
        }
    }
}
