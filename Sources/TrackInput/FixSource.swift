import TrackCore

/// Somewhere fixes come from: gpsd, a serial receiver, or a recorded log.
///
/// `run` reads until the task is cancelled (or, for a recording, until its end) and hands every event to
/// `deliver` in order. Blocking I/O happens on a thread of the source's own, never on Swift's cooperative pool.
/// Losing the device or the daemon is not an error: the source reports `.lost`, keeps trying and reports
/// `.connected` again. `run` throws only for what retrying cannot fix (a malformed address).
public protocol FixSource: Sendable, CustomStringConvertible {
    func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws
}
