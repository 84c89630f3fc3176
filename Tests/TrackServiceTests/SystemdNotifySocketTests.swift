import Glibc
import Testing
@testable import TrackService

@Suite struct SystemdNotifySocketTests {
    @Test func sendsTheStateAsOneDatagramToASocketFile() throws {
        let folder = try #require(makeFolder())
        defer { rmdir(folder) }
        let path = folder + "/notify"
        let receiver = try #require(DatagramReceiver(name: Array(path.utf8), abstract: false))
        defer { receiver.close(); unlink(path) }
        #expect(SystemdNotifySocket.notify("READY=1\nSTATUS=idle", environment: ["NOTIFY_SOCKET": path]))
        #expect(receiver.receive() == "READY=1\nSTATUS=idle")
    }

    @Test func reachesASocketInTheAbstractNamespace() throws {
        let name = "trackd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = try #require(DatagramReceiver(name: Array(name.utf8), abstract: true))
        defer { receiver.close() }
        #expect(SystemdNotifySocket.notify("WATCHDOG=1", environment: ["NOTIFY_SOCKET": "@" + name]))
        #expect(receiver.receive() == "WATCHDOG=1")
    }

    @Test func sendsNothingWithoutASocketOrToAnAddressItCannotUse() {
        #expect(!SystemdNotifySocket.notify("READY=1", environment: [:]))
        #expect(!SystemdNotifySocket.notify("READY=1", environment: ["NOTIFY_SOCKET": "relative/path"]))
        #expect(!SystemdNotifySocket.notify("READY=1", environment: ["NOTIFY_SOCKET": "/nonexistent/trackd/notify"]))
        #expect(!SystemdNotifySocket.notify("READY=1", environment: ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 200)]))
    }

    @Test func readsTheWatchdogForThisProcessOnly() {
        #expect(SystemdNotifySocket.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000"], pid: 42) == .seconds(30))
        #expect(SystemdNotifySocket.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"],
                                                     pid: 42) == .seconds(30))
        #expect(SystemdNotifySocket.watchdogInterval(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "43"],
                                                     pid: 42) == nil)
        #expect(SystemdNotifySocket.watchdogInterval(environment: ["WATCHDOG_USEC": "soon"], pid: 42) == nil)
        #expect(SystemdNotifySocket.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 42) == nil)
        #expect(SystemdNotifySocket.watchdogInterval(environment: [:], pid: 42) == nil)
    }

    private func makeFolder() -> String? {
        var template = Array("/tmp/trackd-notify.XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }
}

/// A bound datagram socket, as systemd listens on `$NOTIFY_SOCKET`.
private struct DatagramReceiver {
    let descriptor: Int32

    init?(name: [UInt8], abstract: Bool) {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = abstract ? [0] + name : name
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { Glibc.close(descriptor); return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    func close() {
        Glibc.close(descriptor)
    }
}
