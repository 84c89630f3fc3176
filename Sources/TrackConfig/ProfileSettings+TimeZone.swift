import TrackZoneInfo

extension ProfileSettings {
    /// Whether `name` is a zone of the system's time-zone database (`ZoneInfo`: `$TZDIR`, else
    /// `/usr/share/zoneinfo`), as the log's reports will read it; `folder` replaces the database's for tests.
    static func isTimeZone(_ name: String, folder: String? = nil) -> Bool {
        ZoneInfo.rules(for: name, directory: folder ?? ZoneInfo.directory) != nil
    }
}
