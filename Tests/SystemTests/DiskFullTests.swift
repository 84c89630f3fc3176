#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// trackd whose mileage log cannot be written for a while, here through a file-size limit (RLIMIT_FSIZE, set on the
/// running trackd with util-linux's prlimit: no mount, no root needed): it stays up, `status` says what is wrong, and when
/// the limit is lifted the track it kept in memory is stored. `scripts/fault-disk` does the same on a filesystem
/// that fills up and one that goes read-only.
@Suite(.serialized)
struct DiskFullTests {
    @Test func aFileSizeLimitLeavesTrackdUpSaysSoAndTheKeptTrackIsStoredWhenItIsLifted() async throws {
        let folder = try TemporaryFolder()
        // The receiver is plugged in once trackd runs (trackctl play on a pseudo-terminal): the drive is played for
        // this test whatever the machine's load did to trackd's start. (Played from a file by trackd itself, it began
        // with trackd, and in the full suite on a busy machine it was over, trackd stopped at its end, before the test
        // had seen trackd up: twice the wait below timed out.)
        let link = folder.file("gps0")
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(link)?baud=9600",
                                            autoStart: "business", configuration: "log:\n  commit_interval: 1\n")
        let receiver = try TestSubprocess(executable: Products.trackctl,
                                          arguments: ["play", DriveLog.demo, "--link", link, "--speed", "10"],
                                          outputPath: folder.file("play.log"))
        defer { receiver.stop() }
        // 3 km into the demo drive: its long stretch without a stop (about 40 s at 10×), so that the limit falls while
        // trackd writes a point each second (set in a stop, nothing is written and nothing fails).
        try await waitFor("the trip has moved 3 km", daemon) { (try await status(daemon)?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0 > 3000 }

        // No file of trackd's may grow past its first byte: every write of the log fails (so does its output).
        try await setFileSizeLimit(of: daemon.process.pid, to: "1")
        let limitedAt = try await lastFixTime(daemon)
        try await waitFor("status says the storage fails", daemon) { (try await status(daemon)?["storage"] as? [String: Any])?["state"] as? String == "failing" }
        let storage = try #require(try await status(daemon)?["storage"] as? [String: Any])
        #expect(storage["detail"] as? String == "file size limit of 1 bytes reached: cannot write \(daemon.database)")
        try await waitFor("points are kept in memory", daemon) { (try await status(daemon)?["storage"] as? [String: Any])?["pending_points"] as? Int ?? 0 > 30 }
        #expect(daemon.process.isRunning, """
            trackd outlives the file-size limit (exit status \(daemon.process.exitStatus.map(String.init) ?? "none")): \
            \(daemon.process.output)
            """)
        let text = try await trackctl(["--socket", daemon.socket, "status"]).output
        #expect(text.contains("storage  failing"), "\(text)")
        #expect(try await query(daemon.database, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")

        // Lifted: the kept points are committed and the state is ok again. Counted against what trackd kept, not
        // against the seconds the limit held: where the demo drive stands, trackd stores a point only when the
        // position drifts, so a limit that falls in a stop keeps few points (the window depends on the run's timing).
        let storedBefore = try await pointCount(daemon)
        let kept = try #require((try await status(daemon)?["storage"] as? [String: Any])?["pending_points"] as? Int)
        try await setFileSizeLimit(of: daemon.process.pid, to: "unlimited")
        let liftedAt = try await lastFixTime(daemon)
        try await waitFor("the storage is ok again", daemon) { (try await status(daemon)?["storage"] as? [String: Any])?["state"] as? String == "ok" }
        let storedAfter = try await pointCount(daemon)
        #expect(storedAfter >= storedBefore + kept,
                "\(storedBefore) points stored before the lift, \(storedAfter) after, \(kept) kept in memory")
        let stored = try await StoredTrack.of(daemon.database).times.count { $0 > limitedAt && $0 <= liftedAt }
        #expect(stored > 0, "\(stored) points stored from the time the limit held, \(kept) kept")
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        #expect(try await query(daemon.database, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    private func status(_ daemon: Trackd) async throws -> [String: Any]? {
        try json(await trackctl(["--socket", daemon.socket, "--json", "status"]).output) as? [String: Any]
    }

    /// The track points in the log's file, as another reader sees them.
    private func pointCount(_ daemon: Trackd) async throws -> Int {
        try await StoredTrack.of(daemon.database).count
    }

    /// The GPS time of the last fix trackd has had, milliseconds since the epoch.
    private func lastFixTime(_ daemon: Trackd) async throws -> Int64 {
        let fix = try #require(try await status(daemon)?["last_fix"] as? [String: Any])
        let time = try #require((fix["time"] as? String).flatMap { ISO8601DateFormatter().date(from: $0.replacingOccurrences(of: ".000", with: "")) })
        return Int64(time.timeIntervalSince1970 * 1000)
    }

    private func waitFor(_ what: String, _ daemon: Trackd, _ condition: () async throws -> Bool) async throws {
        let reached = await poll(upTo: 90) { (try? await condition()) ?? false }
        guard reached else {
            let last = (try? await trackctl(["--socket", daemon.socket, "status"]).output) ?? "(no status)"
            throw SubprocessError("timed out waiting until \(what); status:\n\(last)\ntrackd:\n\(daemon.process.output.suffix(3000))")
        }
    }

    /// Sets the soft RLIMIT_FSIZE of a running process (util-linux's prlimit, which calls prlimit(2)).
    private func setFileSizeLimit(of pid: pid_t, to bytes: String) async throws {
        let result = try await run("/usr/bin/prlimit", ["--pid", "\(pid)", "--fsize=\(bytes):unlimited"])
        guard result.status == 0 else { throw SubprocessError("prlimit: \(result.output)\(result.error)") }
    }
}
