/// What a paired device may do on the page: the driver's phone changes the log, a read-only pairing (an accountant,
/// an employer) sees trips and reports and changes nothing.
public enum WebRole: String, Sendable, Codable, CaseIterable {
    /// Starts and stops trips, edits, names places, sets the profile: everything `trackctl` in the control group may.
    case driver
    /// Reads the log, its reports and exports; changes nothing.
    case viewer
}
