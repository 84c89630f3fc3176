#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 that the test accepts from by hand: the kernel completes a client's
/// connection at once, and the test decides when (and what) to answer.
public final class LoopbackListener: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    /// Listens on a free loopback port.
    public init() throws {
        port = try LoopbackPort.free()
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SubprocessError("socket: \(String(cString: strerror(errno)))") }
        var address = LoopbackPort.ipv4Loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound, listen(descriptor, 4) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SubprocessError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// The next connection (one already made waits in the backlog); the caller closes it.
    public func accept() throws -> Int32 {
        let connection = Glibc.accept(descriptor, nil, nil)
        guard connection >= 0 else { throw SubprocessError("accept: \(String(cString: strerror(errno)))") }
        return connection
    }
}
