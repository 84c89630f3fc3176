import Glibc

/// systemd's notification protocol (`Type=notify`): `READY=1`, `STATUS=…`, `WATCHDOG=1` and `STOPPING=1` as one
/// datagram to the socket in `$NOTIFY_SOCKET`, and the watchdog's interval from `$WATCHDOG_USEC`.
///
/// systemd documents the protocol as stable and gives a standalone implementation for services that do not link
/// libsystemd (sd_notify(3), "Notes"). trackd speaks it itself: libsystemd's `sd_notify`, called every two seconds,
/// kept some 0.4 MB of that library's code resident (docs/benchmarks.md, "Memory"). The journal still goes through
/// libsystemd (`TrackJournal`).
public enum SystemdNotifySocket {
    /// Sends `state` to the socket `$NOTIFY_SOCKET` names; `false` when it is not set or the datagram could not go.
    @discardableResult
    public static func notify(_ state: String, environment: [String: String]) -> Bool {
        guard let address = environment["NOTIFY_SOCKET"] else { return false }
        return send(state, to: address)
    }

    /// Sends `state` as one datagram to `address`: a socket file's path, or `@name` for a socket in the abstract
    /// namespace. `false` when the address is not one of those or the datagram could not go.
    static func send(_ state: String, to address: String) -> Bool {
        var name = Array(address.utf8)
        guard name.first == UInt8(ascii: "/") || name.first == UInt8(ascii: "@"), name.count >= 2 else { return false }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard name.count < capacity else { return false }
        if name[0] == UInt8(ascii: "@") { name[0] = 0 }   // the abstract namespace: a leading NUL, no terminator
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { path in
            path.copyBytes(from: name)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (name[0] == 0 ? 0 : 1))
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
        return sent == bytes.count
    }

    /// systemd's `WatchdogSec` for process `pid`: `$WATCHDOG_USEC`, when `$WATCHDOG_PID` is unset or names `pid`;
    /// `nil` when none is set or the values are not numbers.
    public static func watchdogInterval(environment: [String: String], pid: Int32) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text), microseconds > 0,
              microseconds <= UInt64(Int64.max) else { return nil }
        if let owner = environment["WATCHDOG_PID"] {
            guard let owner = Int32(owner), owner == pid else { return nil }
        }
        return .microseconds(Int64(microseconds))
    }
}
