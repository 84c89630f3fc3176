import CSystemd

/// Tells systemd about the daemon's state (`Type=notify`); does nothing when not started by systemd.
enum SystemdNotifier {
    /// Sends `state` (e.g. `READY=1`) to `$NOTIFY_SOCKET`.
    @Sendable static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// systemd's `WatchdogSec` for this process (`$WATCHDOG_USEC`, `$WATCHDOG_PID`), `nil` when none is set.
    static var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return .microseconds(Int64(microseconds))
    }
}
