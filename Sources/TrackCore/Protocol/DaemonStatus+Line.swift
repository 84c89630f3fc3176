extension DaemonStatus {
    /// The state in one line for systemd's `STATUS=` (`systemctl status trackd`):
    /// "business trip 12.4 km · 3D fix 9 sats", "no trip · 3D fix 9 sats", "waiting for GPS", "gpsd lost: …", and the storage when it fails: "… · storage failing: disk full: …".
    public var summaryLine: String {
        var parts: [String] = []
        if let trip {
            let kilometres = (trip.distance / 100).rounded() / 10
            parts.append("\(trip.kind) trip \(kilometres) km" + (motion?.state == .stationary ? ", parked" : ""))
        } else {
            parts.append("no trip")
        }
        switch source.state {
        case .connected:
            if let fix = lastFix, fix.mode.hasPosition {
                parts.append("\(fix.mode) fix" + (fix.satellitesUsed.map { " \($0) sats" } ?? ""))
            } else {
                parts.append("waiting for GPS")
            }
        case .ended:
            parts.append("source ended")
        default:
            parts.append("source \(source.state.rawValue): \(source.detail)")
        }
        if let storage, !storage.isOK {
            parts.append("storage \(storage.state.rawValue): \(storage.detail)")
        }
        return parts.joined(separator: " · ")
    }
}
