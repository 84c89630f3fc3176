import Logging
import ServiceLifecycle
import TrackCore

/// Keeps systemd told (`Type=notify`): `STATUS=` with the state in one line, `WATCHDOG=1` only while the tracker
/// really handles its inputs (a stuck engine gets restarted), and `STOPPING=1` as soon as the shutdown begins.
/// `READY=1` is sent by whoever knows the daemon is ready (the control socket listens).
public struct SystemdService: Service {
    private let status: LiveStatus
    private let heartbeat: EngineHeartbeat
    private let watchdog: Duration?
    private let clock: @Sendable () -> MonotonicInstant
    private let notify: @Sendable (String) -> Void
    private let logger: Logger

    /// `watchdog` is systemd's `WatchdogSec` (from `$WATCHDOG_USEC`), `nil` when systemd watches nothing.
    public init(status: LiveStatus, heartbeat: EngineHeartbeat, watchdog: Duration?,
                clock: @escaping @Sendable () -> MonotonicInstant, logger: Logger,
                notify: @escaping @Sendable (String) -> Void) {
        self.status = status
        self.heartbeat = heartbeat
        self.watchdog = watchdog
        self.clock = clock
        self.logger = logger
        self.notify = notify
    }

    /// How often to look: half the watchdog time (systemd's advice), and at least every two seconds for `STATUS=`.
    var interval: Duration {
        guard let watchdog else { return .seconds(2) }
        return min(watchdog / 2, .seconds(2))
    }

    /// The engine counts as stuck once it has not finished an input for this long (it has a one-second tick).
    var stuckAfter: Double {
        guard let watchdog else { return .infinity }
        let half = watchdog / 2
        return max(Double(half.components.seconds) + Double(half.components.attoseconds) / 1e18, 2)
    }

    public func run() async {
        let stuckAfter = stuckAfter
        await cancelWhenGracefulShutdown {
            var lastLine = ""
            var complained = false
            while !Task.isCancelled {
                let now = clock()
                let line = status.snapshot(now: now).summaryLine
                var message = line == lastLine ? "" : "STATUS=\(line)"
                lastLine = line
                if watchdog != nil {
                    let age = heartbeat.age(now: now)
                    if age < stuckAfter {
                        message += (message.isEmpty ? "" : "\n") + "WATCHDOG=1"
                        complained = false
                    } else if !complained {
                        complained = true
                        logger.error("the engine has not handled an input for a while; systemd is no longer told it is alive",
                                     metadata: ["seconds": "\(Int(age))"])
                    }
                }
                if !message.isEmpty { notify(message) }
                try? await Task.sleep(for: interval)
            }
        }
        notify("STOPPING=1\nSTATUS=stopping: closing the trip and the log")
    }
}
