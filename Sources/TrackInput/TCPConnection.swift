#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A TCP connection opened the blocking-thread way: name resolution, a non-blocking connect with a timeout that a
/// stop can cut short, `TCP_NODELAY` (an adapter's commands are a few bytes each and wait for their answer).
enum TCPConnection {
    /// A connected, non-blocking, close-on-exec socket to `host`:`port`.
    static func connect(host: String, port: Int, timeout: Double, stop: StopSignal) throws(OBDLinkError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unreachable("\(host):\(port)", String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let descriptor = socket(address.pointee.ai_family, socketType, 0)
            guard descriptor >= 0 else {
                lastError = Errno(rawValue: errno).description
                continue
            }
            let connected = Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
            let code = errno
            if connected || code == EINPROGRESS && finishes(descriptor, timeout: timeout, stop: stop, error: &lastError) {
                var one: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return descriptor
            }
            // Refused at once (`finishes` said why otherwise).
            if code != EINPROGRESS { lastError = Errno(rawValue: code).description }
            _ = Glibc.close(descriptor)
            if stop.isStopped { throw .stopped }
        }
        throw .unreachable("\(host):\(port)", lastError)
    }

    /// Waits for a connect in progress; true when it succeeded, else `error` says why.
    private static func finishes(_ descriptor: Int32, timeout: Double, stop: StopSignal, error: inout String) -> Bool {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
            pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, Int32((timeout * 1000).rounded(.up)))
        guard ready > 0, descriptors[0].revents != 0 else {
            error = stop.isStopped ? "stopped" : "no answer within \(Int(timeout)) s"
            return false
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0, code == 0 else {
            error = Errno(rawValue: code).description
            return false
        }
        return true
    }
}

/// Why the link to an adapter cannot be opened.
public enum OBDLinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A Wi-Fi adapter that cannot be reached (not joined to its network, switched off, the wrong address).
    case unreachable(String, String)
    /// The serial device cannot be opened.
    case serial(SerialPortError)
    /// A stop came while connecting.
    case stopped

    public var description: String {
        switch self {
        case .unreachable(let address, let reason):
            "cannot reach the adapter at \(address): \(reason) (is the board on the adapter's Wi-Fi, and the car's ignition on?)"
        case .serial(let error): error.description
        case .stopped: "stopped while connecting"
        }
    }
}
