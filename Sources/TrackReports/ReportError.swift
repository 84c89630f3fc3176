/// Why a report could not be rendered.
public enum ReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The profile names a time zone this system does not know.
    case unknownTimeZone(String)
    /// A number in the log is not finite (NaN or infinite) and cannot be written as JSON.
    case invalidNumber(String)
    /// `SOURCE_DATE_EPOCH` is set to something that is not a whole number of seconds.
    case invalidSourceDateEpoch(String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .unknownTimeZone(let identifier):
            "unknown time zone '\(identifier)': set the profile's time zone to an IANA name such as Europe/Tallinn "
                + "or UTC (`timedatectl list-timezones` lists them)"
        case .invalidNumber(let detail):
            "the log holds a number that is not finite (\(detail)): check the trip with `trackctl show` and correct it"
        case .invalidSourceDateEpoch(let value):
            "SOURCE_DATE_EPOCH is '\(value)', not a whole number of seconds since 1970-01-01 UTC: set it to one "
                + "(such as 1764417600) or unset it"
        }
    }
}
