#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A `NOTIFY_SOCKET` as systemd has it: a Unix datagram socket that collects what the daemon sends, with the
/// monotonic time each message arrived. `path` is a socket file's path, or `@name` for a socket in the abstract
/// namespace, as `NOTIFY_SOCKET` writes them.
public final class NotifyListener: Sendable {
    /// What `NOTIFY_SOCKET` says to reach this listener.
    public let path: String
    private let descriptor: Int32
    private let received = Mutex<[(at: ContinuousClock.Instant, message: String)]>([])
    private let closed = Atomic<Bool>(false)

    public init(path: String) throws {
        self.path = path
        let abstract = path.hasPrefix("@")
        if !abstract { unlink(path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // The abstract namespace: a leading NUL instead of the '@', and the name's exact length, no terminator.
        let name = abstract ? [0] + Array(path.utf8.dropFirst()) : Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name.prefix($0.count - 1)) }
        let length = abstract ? MemoryLayout<sa_family_t>.size + name.count : MemoryLayout<sockaddr_un>.size
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else { throw SubprocessError("cannot bind \(path): \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !closed.load(ordering: .relaxed) {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { continue }
                let message = String(decoding: buffer[..<count], as: UTF8.self)
                received.withLock { $0.append((ContinuousClock.now, message)) }
            }
            close(descriptor)
        }.start()
    }

    /// Stops listening and removes the socket (the receiving thread holds the listener until then).
    public func stop() {
        closed.store(true, ordering: .relaxed)
        if !path.hasPrefix("@") { unlink(path) }
    }

    /// Every `KEY=value` line received so far, in order.
    public var assignments: [String] {
        received.withLock { $0.flatMap { $0.message.split(separator: "\n").map(String.init) } }
    }

    /// When the last message holding `line` arrived.
    public func lastArrival(of line: String) -> ContinuousClock.Instant? {
        received.withLock { $0.last { $0.message.split(separator: "\n").contains { $0 == line } }?.at }
    }

    /// When each message holding `line` arrived, in order.
    public func arrivals(of line: String) -> [ContinuousClock.Instant] {
        received.withLock { $0.filter { $0.message.split(separator: "\n").contains { $0 == line } }.map(\.at) }
    }

    /// How many messages held `line`.
    public func count(of line: String) -> Int {
        assignments.filter { $0 == line }.count
    }
}
