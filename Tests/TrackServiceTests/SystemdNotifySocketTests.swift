import Glibc
import TestSupport
import Testing
@testable import TrackService

@Suite struct SystemdNotifySocketTests {
    @Test func sendsTheStateAsOneDatagramToASocketFile() async throws {
        let folder = try TemporaryFolder()
        let listener = try NotifyListener(path: folder.file("notify"))
        defer { listener.stop() }
        #expect(SystemdNotifySocket.notify("READY=1\nSTATUS=idle", environment: ["NOTIFY_SOCKET": listener.path]))
        let received = await poll(upTo: 10) { listener.assignments == ["READY=1", "STATUS=idle"] }
        #expect(received, "\(listener.assignments)")
    }

    @Test func reachesASocketInTheAbstractNamespace() async throws {
        let listener = try NotifyListener(path: "@trackd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { listener.stop() }
        #expect(SystemdNotifySocket.notify("WATCHDOG=1", environment: ["NOTIFY_SOCKET": listener.path]))
        let received = await poll(upTo: 10) { listener.count(of: "WATCHDOG=1") == 1 }
        #expect(received, "\(listener.assignments)")
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
}
