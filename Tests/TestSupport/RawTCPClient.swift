#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A TCP connection on plain sockets, from a chosen loopback address (any of 127.0.0.0/8), for tests that behave as
/// a client on the network would: half-sent requests, streams held open, many connections at once.
public final class RawTCPClient: @unchecked Sendable {
    private let descriptor: Int32
    /// Everything read so far.
    public private(set) var received: [UInt8] = []
    /// Whether the server closed its end (a read returned 0) or reset the connection.
    public private(set) var closedByServer = false

    /// Connects from `source` (such as "127.0.0.2") to 127.0.0.1:`port`.
    public init(port: Int, from source: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SubprocessError("socket: \(String(cString: strerror(errno)))") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
            Glibc.close(descriptor)
            throw SubprocessError("not an IPv4 address: \(source)")
        }
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var remote = LoopbackPort.ipv4Loopback(port)
        let connected = bound == 0 ? withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } : -1
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw SubprocessError("cannot connect from \(source) to port \(port): \(reason)")
        }
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Writes all of `text`.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = write(descriptor, bytes, bytes.count)
            guard written > 0 else { throw SubprocessError("write: \(String(cString: strerror(errno)))") }
            bytes.removeFirst(written)
        }
    }

    /// Reads what has arrived, without waiting; whether anything did (bytes, or the server's end).
    @discardableResult
    public func readAvailable() -> Bool {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&pollDescriptor, 1, 0) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        if count > 0 {
            received += buffer.prefix(count)
        } else {
            closedByServer = true
        }
        return true
    }

    /// Reads until `text` has arrived or the server closed, for at most `seconds`; whether `text` arrived. It waits
    /// by sleeping, never by blocking its thread (one of the few every test shares).
    public func read(until text: String, waitingUpTo seconds: Double) async -> Bool {
        await wait(upTo: seconds) { receivedText.contains(text) }
        return receivedText.contains(text)
    }

    /// Reads until the server closes, for at most `seconds`; whether it did.
    public func readUntilClosed(waitingUpTo seconds: Double) async -> Bool {
        await wait(upTo: seconds) { false }
        return closedByServer
    }

    /// Reads what arrives until `done` holds or the server closed, sleeping 10 ms whenever nothing came.
    private func wait(upTo seconds: Double, until done: () -> Bool) async {
        let deadline = MonotonicTime.now.adding(seconds: seconds)
        while !done() && !closedByServer && MonotonicTime.now < deadline {
            if !readAvailable() { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// What was read, as text.
    public var receivedText: String { String(decoding: received, as: UTF8.self) }
}
