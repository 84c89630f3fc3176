import TrackCore

/// The `profile:` section: what the mileage log's profile starts with. Each value fills the profile's field only
/// while it is empty, so that what was set with `trackctl profile set` always wins.
public struct ProfileDefaults: Sendable, Hashable {
    public var driver: String?
    public var plate: String?
    public var company: String?
    /// An IANA time-zone id such as `Europe/Tallinn`.
    public var timeZone: String?

    public init(driver: String? = nil, plate: String? = nil, company: String? = nil, timeZone: String? = nil) {
        self.driver = driver
        self.plate = plate
        self.company = company
        self.timeZone = timeZone
    }
}

extension ProfileDefaults {
    /// The changes that fill `profile`'s empty fields (a time zone still at `UTC`) with these defaults.
    public func changes(filling profile: LogProfile) -> ProfileChanges {
        func missing(_ value: String?) -> Bool { (value ?? "").isEmpty }
        return ProfileChanges(
            driver: missing(profile.driver) ? driver : nil,
            plate: missing(profile.plate) ? plate : nil,
            company: missing(profile.company) ? company : nil,
            timeZone: profile.timeZone == "UTC" && timeZone != "UTC" ? timeZone : nil)
    }
}
