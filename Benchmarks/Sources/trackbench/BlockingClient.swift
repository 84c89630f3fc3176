#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A control-socket client on a plain blocking socket and a thread of its own: what it measures is trackd, not a
/// client's event loop.
final class BlockingClient {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8.prefix($0.count - 1))) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw BenchError("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(descriptor)
    }

    /// Sends one line and reads the one line that answers it.
    func exchange(_ line: String) throws -> [UInt8] {
        let bytes = Array(line.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
            sent += count
        }
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return answer
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchError("trackd closed the connection") }
            buffer += chunk[..<count]
        }
    }
}

/// A benchmark that could not run.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
