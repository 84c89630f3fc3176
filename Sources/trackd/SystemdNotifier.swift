import CSystemd

/// Tells systemd about the daemon's state (`Type=notify`); does nothing when not started by systemd.
enum SystemdNotifier {
    /// Sends `state` (e.g. `READY=1`) to `$NOTIFY_SOCKET`.
    static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}
