import TrackCore

/// What a fix source reports to the engine, in the order it happened.
public enum SourceEvent: Sendable {
    /// A fix epoch, stamped with the monotonic time it arrived.
    case fix(Fix, receivedAt: MonotonicInstant)
    /// The source's connection changed.
    case state(SourceState)
    /// Input that had to be dropped (a damaged sentence), with the reason.
    case problem(NMEADiagnostic)
    /// `auto` found a receiver: the source it reads from now, and why that one.
    case chosen(SourceAddress, reason: String)
}

/// The health of a source's connection, for `status` and the log.
public enum SourceState: Sendable, Hashable, CustomStringConvertible {
    /// Trying to reach gpsd or open the device for the first time.
    case connecting
    /// Connected and reading.
    case connected(String)
    /// Lost (gpsd went away, the device was unplugged); retrying in the background.
    case lost(String)
    /// A recorded log was read to its end.
    case ended

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected(let detail): "connected (\(detail))"
        case .lost(let reason): "lost: \(reason)"
        case .ended: "end of recording"
        }
    }
}
