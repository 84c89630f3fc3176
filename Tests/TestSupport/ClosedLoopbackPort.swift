#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that nothing answers on while it is held: a socket bound to 127.0.0.1 there and never
/// listening, so that a connection to it is refused and no other program (another test's gpsd, which checks that it
/// can bind with `LoopbackPort.free()`) can take it meanwhile. A port that was merely free when chosen could be given
/// to a gpsd of a test running beside, which then answered where nothing should (the arm64 suite saw it once).
public final class ClosedLoopbackPort {
    public let port: Int
    private var descriptor: Int32

    public init() throws {
        for _ in 0..<200 {
            let port = Int.random(in: LoopbackPort.candidates)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { break }
            // No SO_REUSEADDR: a program that sets it still cannot bind where this socket is bound.
            if LoopbackPort.bindIPv4(descriptor, port) {
                self.port = port
                self.descriptor = descriptor
                return
            }
            Glibc.close(descriptor)
        }
        throw SubprocessError("found no loopback port to hold closed in \(LoopbackPort.candidates)")
    }

    /// Lets the port go; also on deinit.
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
