#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport

/// gpsd run by gpsfake on 127.0.0.1:`port`, fed an NMEA log in a loop (gpsfake without `-1`), one sentence every
/// 20 ms: a 30-epoch log takes 3 s a round.
final class GPSFake {
    static let gpsfakePath = "/usr/bin/gpsfake"
    /// gpsfake starts gpsd from PATH, and Debian installs it in /usr/sbin, which is not on every user's PATH.
    static let gpsdPath = "/usr/sbin/gpsd"

    let port: Int
    /// gpsfake's own temporary directory (its TMPDIR), with its output and gpsd's control socket, which gpsd,
    /// having dropped its privileges, cannot remove from a shared /tmp.
    private let directory: URL
    private let process: TestSubprocess

    /// Starts gpsfake; fails, naming the Debian packages, if gpsfake or gpsd is not installed.
    init(port: Int, log: URL) throws {
        let files = FileManager.default
        guard files.isExecutableFile(atPath: GPSFake.gpsfakePath) else {
            throw TestFailure("\(GPSFake.gpsfakePath) is missing: these tests need a real gpsd; "
                              + "install it with `apt-get install -y gpsd gpsd-clients`")
        }
        guard files.isExecutableFile(atPath: GPSFake.gpsdPath) else {
            throw TestFailure("\(GPSFake.gpsdPath) is missing: install it with `apt-get install -y gpsd`")
        }
        self.port = port
        directory = files.temporaryDirectory.appendingPathComponent("trackd-gpsfake-\(port)-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = ProcessInfo.processInfo.environment["PATH"].map { ":\($0)" } ?? ""
        // -q: no progress chatter; -P: gpsd's port; -c: seconds between sentences; -n: gpsd opens the fake device
        // as soon as gpsfake adds it. Without -n, a client that connects and watches in the moment between gpsd
        // listening and gpsfake adding the device got nothing at all (seen once, on a loaded machine, with trackd
        // retrying every half second).
        do {
            process = try TestSubprocess(
                executable: GPSFake.gpsfakePath, arguments: ["-q", "-n", "-P", String(port), "-c", "0.02", log.path],
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin" + path, "TMPDIR": directory.path],
                outputPath: directory.appendingPathComponent("output.log").path
            )
        } catch {
            try? files.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        stop()
    }

    /// What gpsfake and gpsd printed so far.
    var output: String { process.output }

    /// Waits until gpsd accepts connections on the port.
    func waitUntilListening(upTo seconds: Double = 20) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(TestPatience.seconds(seconds)))
        while ContinuousClock.now < deadline {
            if LoopbackPort.acceptsConnections(port) { return }
            guard process.isRunning else { throw TestFailure("gpsfake exited early:\n\(output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("gpsd did not listen on 127.0.0.1:\(port) within \(seconds) s; gpsfake's output:\n\(output)")
    }

    /// Waits until gpsd listens and delivers positions to a client of its own (a probe watching in JSON): gpsfake
    /// adds its device and starts feeding a moment after gpsd listens, and in the full suite a source that connected
    /// in that moment twice saw no fix for 45 s. Waiting for the data (not for a time) makes the test about the
    /// source; if gpsd never delivers, the failure says so, with gpsfake's output.
    func waitUntilDelivering(upTo seconds: Double = 45) async throws {
        try await waitUntilListening(upTo: seconds)
        let port = self.port
        let delivering = try await offload { () -> Bool in
            let deadline = ContinuousClock.now.advanced(by: .seconds(TestPatience.seconds(seconds)))
            while ContinuousClock.now < deadline {
                if GPSFake.probeSeesAPosition(port: port) { return true }
                usleep(100_000)
            }
            return false
        }
        guard delivering else {
            throw TestFailure("gpsd on 127.0.0.1:\(port) delivered no position to a probe within \(seconds) s; "
                              + "gpsfake's output:\n\(output)")
        }
    }

    /// gpsfake on a free port, delivering positions to a probe: started a second time, on another free port, when the
    /// first did not deliver (once in the suite at 2028-02-29 a gpsfake, with nothing in its output, gave a probe no
    /// position for 135 s while a thousand tests ran beside it). The source under test connects only afterwards, so a
    /// gpsfake that never started feeding says nothing about the source; a second failure fails the test.
    static func delivering(log: URL) async throws -> GPSFake {
        let first = try GPSFake(port: try LoopbackPort.free(), log: log)
        do {
            try await first.waitUntilDelivering()
            return first
        } catch {
            first.stop()
            print("gpsfake started again on another port: \(error)")
        }
        let second = try GPSFake(port: try LoopbackPort.free(), log: log)
        try await second.waitUntilDelivering()
        return second
    }

    /// Connects, asks for JSON reports and reads for up to 3 s: whether a TPV with a position came.
    private static func probeSeesAPosition(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = LoopbackPort.ipv4Loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return false }
        let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [10]
        guard write(descriptor, watch, watch.count) == watch.count else { return false }
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = ContinuousClock.now.advanced(by: .seconds(3))
        while ContinuousClock.now < end {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return false }
            received += String(decoding: buffer.prefix(count), as: UTF8.self)
            if received.split(separator: "\n").contains(where: { $0.contains(#""class":"TPV""#) && $0.contains(#""lat":"#) }) {
                return true
            }
        }
        return false
    }

    /// Stops gpsfake and its gpsd (SIGTERM to both, SIGKILL after 10 s), waits until the port is closed and
    /// removes gpsfake's directory. Safe to call more than once.
    func stop() {
        process.stop()
        _ = waitUntil(upTo: 10) { !LoopbackPort.acceptsConnections(port) }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A test failure with a message, thrown from helpers.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
