import TrackCore

extension ProfileChanges {
    /// The configuration's `profile:` section as changes that fill `profile`'s empty fields (a time zone still at
    /// `UTC`), so that what was set with `trackctl profile set` always wins.
    public func filling(_ profile: LogProfile) -> ProfileChanges {
        func missing(_ value: String?) -> Bool { (value ?? "").isEmpty }
        return ProfileChanges(
            driver: missing(profile.driver) ? driver : nil,
            plate: missing(profile.plate) ? plate : nil,
            company: missing(profile.company) ? company : nil,
            timeZone: profile.timeZone == "UTC" && timeZone != "UTC" ? timeZone : nil,
            country: profile.country == nil ? country : nil)
    }
}
