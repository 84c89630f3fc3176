/// One round of the power-cut harness: how trackd was restarted and killed, what the copy of its log showed, and
/// which invariants it broke (none, when all is well).
struct PowerCutRound: Codable, Sendable {
    var round: Int
    /// GPS seconds from the log's last point (or the last fix seen) to the first epoch played after the restart.
    var offSeconds: Double
    /// What docs/storage.md says must happen to the trip left open: `resume`, `close`, `either` (within a second of
    /// `resume_within`), or `start` (no trip was open: `--auto-start` starts one).
    var expected: String
    /// What the copy shows: `resumed`, `closed`, `undecided` (killed before the first usable fix was handled),
    /// `started`, `not started`, or `final stop`.
    var outcome: String
    /// Wall seconds from the first fix the watcher saw to the SIGKILL, as drawn.
    var killAfter: Double
    /// Fixes the watcher saw; GPS time of the last; whether the vehicle was moving then.
    var fixesSeen: Int
    var lastFixSeen: String?
    var movingAtKill: Bool
    /// GPS time of the running trip's newest stored point after the kill.
    var lastPointStored: String?
    /// Accepted track missing before the kill: points trackd had received while moving and not committed, in GPS
    /// seconds of track and in wall seconds at the playback speed (what the same cut costs at the real pace).
    var missingPoints: Int
    var missingGPSSeconds: Double
    var missingWallSeconds: Double
    var trips: Int
    var openTrip: Int64?
    var violations: [String]
}
