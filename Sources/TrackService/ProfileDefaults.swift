import Logging
import TrackConfig
import TrackCore
import TrackStore

/// The configuration's `profile:` section put into the log: it fills the profile's empty fields (driver, plate, …)
/// and never overwrites what the driver has set.
public enum ProfileDefaults {
    /// Fills `log`'s empty profile fields from `defaults`, as user `trackd` at `time` (the system clock: this
    /// happens at start and reload, before GPS time is known), noting `configurationPath` as the reason.
    public static func apply(_ defaults: ProfileChanges, from configurationPath: String?, to log: MileageLog,
                             at time: UTCTime, logger: Logger) async {
        do {
            let changes = defaults.filling(try await log.profile())
            guard !changes.isEmpty else { return }
            _ = try await log.setProfile(changes, reason: "defaults from \(configurationPath ?? "the configuration")",
                                         context: ChangeContext(user: "trackd", time: time, timeSource: "system"))
            logger.notice("profile filled in from the configuration", metadata: ["config": "\(configurationPath ?? "")"])
        } catch {
            logger.error("cannot fill in the profile from the configuration", metadata: ["error": "\(error)"])
        }
    }
}
