import Logging

extension Logger.Level {
    /// The syslog priority journald files a record of this level under (`PRIORITY=`): trace and debug 7, info 6,
    /// notice 5, warning 4, error 3, critical 2.
    public var syslogPriority: Int {
        switch self {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
