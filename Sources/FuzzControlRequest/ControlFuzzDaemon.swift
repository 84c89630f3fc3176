import Foundation
import FuzzSupport
import Logging
import NIOCore
import TrackCore
import TrackInput
import TrackService
import TrackStore

/// The daemon's side of the control socket without the socket: a real mileage log (on tmpfs when there is one), the
/// tracker that carries out changes, the live status and the request handler, wired as `trackd` wires them.
///
/// The log fills as inputs add trips; every `inputsPerLog` inputs a fresh daemon with a fresh log takes over, so
/// that an input meets a log of bounded size. A finding that depended on what earlier inputs left in the log may
/// not reproduce on its own (a replay starts from the seeded log).
final class ControlFuzzDaemon: @unchecked Sendable {
    /// Inputs one log serves before a fresh one takes over.
    static let inputsPerLog = 2000

    let handler: ControlRequestHandler
    let status: LiveStatus
    private let folder: String
    private let inbox: TrackerInbox
    private let tracker: Task<Void, Never>
    private var inputs = 0

    /// The daemon for the next input.
    static func current() -> ControlFuzzDaemon {
        if let daemon = running, daemon.inputs < inputsPerLog {
            daemon.inputs += 1
            return daemon
        }
        running?.stop()
        generation += 1
        let daemon = ControlFuzzDaemon(folder: "\(root)/\(generation)")
        running = daemon
        daemon.inputs = 1
        return daemon
    }

    nonisolated(unsafe) private static var running: ControlFuzzDaemon?
    nonisolated(unsafe) private static var generation = 0

    /// Where the logs go: `$TRACKD_FUZZ_DIR` (`scripts/fuzz` makes one and removes it), else a folder of this
    /// process's on tmpfs (or in the temporary folder), removed at a normal exit.
    private static let root: String = {
        if let folder = ProcessInfo.processInfo.environment["TRACKD_FUZZ_DIR"] { return folder }
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let root = "\(base)/trackd-fuzz-\(getpid())"
        atexit { try? FileManager.default.removeItem(atPath: "\(ControlFuzzDaemon.root)") }
        return root
    }()

    /// The time everything happens at: one fixed monotonic instant, so an input's answers depend only on the log.
    static let now = MonotonicInstant(nanoseconds: 1_000_000 * 1_000_000_000)

    private init(folder: String) {
        self.folder = folder
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create \(folder): \(error)")
        }
        let log: MileageLog
        do {
            log = try MileageLog.open(path: "\(folder)/trackd.sqlite")
        } catch {
            fatalError("cannot open the log in \(folder): \(error)")
        }
        let clock: @Sendable () -> MonotonicInstant = { ControlFuzzDaemon.now }
        let address = "serial:///dev/gps0?baud=9600"
        let status = LiveStatus(address: address, now: clock())
        let inbox = TrackerInbox()
        let tracker = TrackerService(
            inbox: inbox, status: status, hub: WatchHub(), address: address,
            logger: Logger(label: "trackd.fuzz") { _ in SwiftLogNoOpLogHandler() }, clock: clock,
            tick: .seconds(3600), recording: .init(log: log))
        self.status = status
        self.inbox = inbox
        self.tracker = Task { await tracker.run() }
        handler = ControlRequestHandler(status: status, clock: clock, log: log, tracker: inbox, access: .everyone)
        seed()
    }

    /// A fix for the status and the engine, and a log with a profile, an odometer reading, a regular trip and trips.
    private func seed() {
        inbox.deliver(.fix(ControlFuzzDaemon.fix, receivedAt: ControlFuzzDaemon.now))
        let status = self.status
        blocking {
            while status.snapshot(now: ControlFuzzDaemon.now).epochs == 0 {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
        let handler = self.handler
        for line in ControlFuzzDaemon.seedRequests {
            _ = blocking { await handler.handle(ByteBuffer(string: line)) }
        }
    }

    /// Ends the tracker (as at shutdown) and removes the log.
    private func stop() {
        inbox.finish()
        let tracker = self.tracker
        blocking { await tracker.value }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The fix the tracker has at the start: 3D, in Tallinn, at the demo drive's first second.
    static let fix = Fix(
        time: UTCTime(iso8601: "2026-11-22T08:00:00Z"), mode: .threeD, quality: .gps,
        latitude: 59.43699733333333, longitude: 24.7536135, altitudeMSL: 35.6, geoidSeparation: 18.1,
        speed: 0.1, track: 22.12, eph: 4.8, ephSource: .receiver, hdop: 0.87, vdop: 1.13, pdop: 1.39,
        satellitesUsed: 10, satellitesInView: 14)

    /// The requests that fill a fresh log, answered before the first input.
    static let seedRequests = [
        #"{"jsonrpc":"2.0","id":1,"method":"profile.set","params":{"changes":{"driver":"Anna Tamm","plate":"123 ABC","time_zone":"Europe/Tallinn"}}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"odometer.set","params":{"kilometres":48210.4,"reason":"dashboard"}}"#,
        #"{"jsonrpc":"2.0","id":3,"method":"regular.add","params":{"name":"office","distance_m":18400,"kind":"business","purpose":"Office","destination":"Harbour office"}}"#,
        #"{"jsonrpc":"2.0","id":4,"method":"add","params":{"date":"2026-11-21","distance_m":5000,"kind":"private"}}"#,
        #"{"jsonrpc":"2.0","id":5,"method":"add","params":{"date":"2026-11-22","regular":"office"}}"#,
        #"{"jsonrpc":"2.0","id":6,"method":"start","params":{"kind":"business","purpose":"Visit"}}"#,
    ]
}
