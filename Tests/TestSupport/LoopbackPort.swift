#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// TCP ports on the loopback interface, for tests that run a server (gpsd) on one.
public enum LoopbackPort {
    /// A TCP port free on both 127.0.0.1 and ::1 (gpsd listens on both), below the ephemeral range, so that the
    /// source's own connection attempts to a closed port can never be given it as their local port.
    public static func free() throws -> Int {
        let range = candidates
        for _ in 0..<200 {
            let port = Int.random(in: range)
            if canBind(port, family: AF_INET) && canBind(port, family: AF_INET6) { return port }
        }
        throw SubprocessError("found no free loopback port in \(range)")
    }

    /// The ports tests take: from 20000 to below the ephemeral range (the kernel's local ports for connections).
    public static var candidates: Range<Int> {
        let ephemeralStart = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
        return 20000..<max(20001, min(ephemeralStart, 32768))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func acceptsConnections(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = ipv4Loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func canBind(_ port: Int, family: Int32) -> Bool {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return family == AF_INET6 }  // No IPv6 here: gpsd will not use it either.
        defer { close(descriptor) }
        if family == AF_INET { return bindIPv4(descriptor, port) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(UInt16(port).bigEndian)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }

    /// Binds `descriptor` (an IPv4 TCP socket) to 127.0.0.1:`port`; whether it could.
    public static func bindIPv4(_ descriptor: Int32, _ port: Int) -> Bool {
        var address = ipv4Loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// 127.0.0.1:`port` as a socket address.
    public static func ipv4Loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        return address
    }
}
