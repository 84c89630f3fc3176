/// Which USB sticks trackd-stick copies the reports to (the `stick:` section of trackd.conf; docs/install.md,
/// "Taking the logs home"): what trackd-stick reads at each insertion. trackd itself only checks the section.
public struct StickConfiguration: Sendable, Hashable {
    /// Which sticks qualify.
    public enum Accept: String, Sendable, CaseIterable {
        /// Only a stick that has a `trackd` folder at its top, or carries `label`: one a person made for it.
        case marked
        /// Any stick with a FAT, exFAT or ext4 filesystem.
        case any
    }

    public var accept: Accept = .marked
    /// The label that marks a stick (case as FAT keeps it: upper case).
    public var label: String = "TRACKD"

    public init() {}
}
