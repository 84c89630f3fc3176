import TrackCore
import TrackWebClient

/// What each role may ask trackd through the page, one rule for every method of the control protocol. docs/web.md
/// prints this table and `WebAccessTests` checks each cell through real requests.
public enum WebAccess {
    /// Whether a device of `role` may call `method` through `/api/rpc`.
    public static func allows(_ role: WebRole, _ method: ControlMethod) -> Bool {
        switch method {
        // trackd-web says hello itself; `watch` is served as `/api/events`; `report.mailed` is the monthly mailer's,
        // `report.copied` trackd-stick's.
        case .hello, .watch, .reportMailed, .reportCopied:
            false
        default:
            role == .driver || !method.changesLog
        }
    }
}
