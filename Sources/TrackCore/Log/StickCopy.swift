/// One copy of the log's reports to a USB stick (`trackd-stick`, docs/install.md "Taking the logs home"), as the log
/// records it: when, which stick, how many files were written, left as they were or removed, and what went wrong.
public struct StickCopy: Sendable, Hashable, Codable {
    /// The row's number in the log (0 before it is recorded).
    public var id: Int64
    /// When the copy ended.
    public var time: UTCTime
    /// The stick's filesystem label (`TRACKD`); empty when it has none.
    public var label: String
    /// Its filesystem: `vfat`, `exfat` or `ext4` (empty when trackd-stick was given a folder).
    public var filesystem: String
    /// The folder on the stick the files went to (`trackd/AB-123`).
    public var folder: String
    /// Files written (new or changed), left as they were, and removed (a month that has gone from the log).
    public var written: Int
    public var unchanged: Int
    public var removed: Int
    /// The newest hash of the log's chain that the copied reports carry (empty for a log with no chain yet).
    public var chainHead: String
    /// Why the copy did not finish (the stick is full, read-only, damaged, pulled out); `nil` when it did.
    public var problem: String?

    public init(id: Int64 = 0, time: UTCTime, label: String, filesystem: String, folder: String, written: Int,
                unchanged: Int, removed: Int, chainHead: String, problem: String? = nil) {
        self.id = id
        self.time = time
        self.label = label
        self.filesystem = filesystem
        self.folder = folder
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.chainHead = chainHead
        self.problem = problem
    }

    /// Whether every file reached the stick.
    public var isComplete: Bool { problem == nil }

    enum CodingKeys: String, CodingKey {
        case id, time, label, filesystem, folder, written, unchanged, removed, problem
        case chainHead = "chain_head"
    }
}
