#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Where trackd's log records go: the journal, as native fields, when systemd connected standard error to it;
/// plain lines on standard error everywhere else (a terminal, a pipe, a test).
public enum LogDestination: Sendable, Equatable {
    /// The systemd journal, through `JournalLogHandler`.
    case journal
    /// Plain lines on standard error, through swift-log's `StreamLogHandler`.
    case standardError

    /// The destination for a process whose standard error is `descriptor`: the journal when `journalStream` (the
    /// value of `$JOURNAL_STREAM`, `DEVICE:INODE` in decimal) names that descriptor's device and inode, which is
    /// systemd's documented test that standard error goes to the journal; else standard error. A `$JOURNAL_STREAM`
    /// inherited by a process whose standard error was redirected elsewhere does not match.
    public static func choose(journalStream: String?, standardError descriptor: Int32 = STDERR_FILENO) -> LogDestination {
        guard let journalStream else { return .standardError }
        let parts = journalStream.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return .standardError }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .standardError }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode ? .journal : .standardError
    }

    /// Chooses the destination from this process's `$JOURNAL_STREAM` and standard error, and bootstraps swift-log
    /// with its handler at the level `levels` holds (changing the switch later changes every logger), the journal's
    /// lines under `identifier` (`journalctl -t`). Call once, before the first logger is made.
    @discardableResult
    public static func bootstrap(levels: LogLevelSwitch, identifier: String = "trackd") -> LogDestination {
        let destination = choose(journalStream: getenv("JOURNAL_STREAM").map { String(cString: $0) })
        LoggingSystem.bootstrap { label in destination.handler(label: label, levels: levels, identifier: identifier) }
        return destination
    }

    /// A handler for a logger with this label, at the level `levels` holds.
    public func handler(label: String, levels: LogLevelSwitch, identifier: String = "trackd") -> any LogHandler {
        switch self {
        case .journal:
            return SwitchedLevelHandler(JournalLogHandler(label: label, identifier: identifier), levels: levels)
        case .standardError:
            return SwitchedLevelHandler(StreamLogHandler.standardError(label: label), levels: levels)
        }
    }
}
