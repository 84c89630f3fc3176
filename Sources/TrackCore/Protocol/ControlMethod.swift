/// The methods of trackd's control protocol (newline-delimited JSON-RPC 2.0 over a Unix socket).
public enum ControlMethod: String, Sendable, CaseIterable, Codable {
    /// Version exchange: `{"client": "trackctl 0.1.0", "protocol": 1}` → `HelloResult`.
    case hello
    /// The daemon's live state → `DaemonStatus`.
    case status
    /// Subscribe to live events; the daemon then sends `fix` and `source` notifications (and `lagged`).
    case watch
}

/// Limits and version of the control protocol.
public enum ControlProtocol {
    /// Protocol version; bumped on incompatible changes.
    public static let version = 1
    /// Longest request line accepted, bytes.
    public static let maxLineLength = 64 * 1024
}
