import TrackCore
import TrackReports
import TrackStore

/// Why a month's report did not go out by e-mail, or went out and was not recorded.
public enum ReportMailError: Error, Sendable, CustomStringConvertible {
    /// The report could not be read from the log; nothing was sent.
    case log(StoreError)
    /// The report could not be rendered; nothing was sent.
    case render(ReportError)
    /// msmtp did not send it; nothing was sent and nothing recorded.
    case send(MailError)
    /// The mail went out, but the log could not record it (the record it would have written): sending again would
    /// send it twice.
    case notRecorded(ReportMailing, cause: StoreError)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .log(let error): "cannot read the month's report: \(error)"
        case .render(let error): "cannot render the month's report: \(error)"
        case .send(let error): error.description
        case .notRecorded(let mailing, let cause):
            "the report was sent (message <\(mailing.messageID)>) but the log could not record it: \(cause)"
        }
    }
}
