#if canImport(Glibc)
import Glibc
#endif

/// Why a record did not reach the journal.
public enum JournalError: Error, Equatable, CustomStringConvertible {
    /// `sd_journal_sendv` refused or could not send the record (the errno it returned).
    case sendFailed(errno: Int32)

    public var description: String {
        switch self {
        case .sendFailed(let errno):
            "cannot send to the systemd journal (\(String(cString: strerror(errno)))): is systemd-journald running "
                + "and listening on /run/systemd/journal/socket?"
        }
    }
}
