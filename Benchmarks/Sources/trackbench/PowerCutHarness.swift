#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore

/// Power cuts, scripted and seeded: trackd records a drive played at high speed and is killed with SIGKILL at a
/// random instant, again and again, each time restarted where the drive has got to (the receiver kept running
/// while the power was off). After every kill a copy of the files is checked: the integrity check, no trip lost or
/// duplicated, the trip left open resumed or closed as docs/storage.md says, the hash chain, and how much accepted
/// track was missing.
struct PowerCutHarness {
    /// How the harness runs.
    struct Settings: Sendable {
        var trackd: String
        var trackctl: String
        var drive: RecordedDrive
        var work: String
        var seed: UInt64
        var rounds: Int
        var speed: Double
        /// `log.commit_interval`; `nil` leaves trackd's default (1 s).
        var commitInterval: Double?
        var resumeWithin: Double
        /// Kills come at a uniformly drawn instant up to this many wall seconds after the first fix.
        var maxLife: Double
        /// Share of restarts that come back later than `resume_within`.
        var lateShare = 0.2
    }

    /// A speed at or above which a fix counts as moving (the engine's `movingSpeed`): while moving, every accepted
    /// fix is a track point; while standing, trackd keeps a point only when the position drifts.
    static let movingSpeed = 0.5
    /// Fixes after a start that the accuracy gate holds back while the position converges (not track).
    static let convergingFixes = 2

    let settings: Settings
    private var random: SplitMix64

    init(settings: Settings) {
        self.settings = settings
        random = SplitMix64(seed: settings.seed)
    }

    private var state: String { "\(settings.work)/state" }
    private var database: String { "\(state)/trackd.sqlite" }

    /// Runs every round and the final orderly stop; `progress` hears each round as it ends.
    mutating func run(progress: (PowerCutRound) -> Void) async throws(HarnessError) -> [PowerCutRound] {
        do {
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            var yaml = "log:\n  resume_within: \(settings.resumeWithin)\n"
            if let interval = settings.commitInterval { yaml += "  commit_interval: \(interval)\n" }
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: "\(settings.work)/trackd.yaml"))
        } catch {
            throw .unwritable(path: settings.work, reason: "\(error)")
        }
        var results: [PowerCutRound] = []
        var before = LogSnapshot(integrity: "ok", trips: [], duplicatedGaps: [], duplicatedPointTimes: 0)
        var base = settings.drive.epochs[0].time.adding(seconds: -1)
        var resumes: [Int64: Int] = [:]
        for round in 1...(settings.rounds + 1) {
            let final = round > settings.rounds
            let result = try await runRound(round, final: final, before: &before, base: &base, resumes: &resumes)
            results.append(result)
            progress(result)
            if result.violations.contains(where: { $0.hasPrefix("unreadable") }) { break }
        }
        return results
    }

    // MARK: - One round

    private mutating func runRound(_ round: Int, final: Bool, before: inout LogSnapshot, base: inout UTCTime,
                                   resumes: inout [Int64: Int]) async throws(HarnessError) -> PowerCutRound {
        let drive = settings.drive
        // Where the drive has got to when the power comes back.
        let late = settings.resumeWithin == 0 || uniform() < settings.lateShare
        let off = late ? settings.resumeWithin * (1.2 + 0.8 * uniform()) + 2 : 2 + (settings.resumeWithin * 0.8 - 2) * uniform()
        guard let first = drive.firstIndex(after: base.adding(seconds: off)) else {
            throw .driveTooShort(path: drive.path, needed: base.adding(seconds: off).description)
        }
        let sliceSeconds = (settings.maxLife + 10) * settings.speed + 30
        let slice = try drive.writeSlice(from: first, seconds: sliceSeconds, to: "\(settings.work)/slice.nmea")
        let deciding = slice.first { drive.epochs[$0].hasPosition } ?? slice.lowerBound

        // What docs/storage.md says must become of the trip left open.
        let expected: String
        if let open = before.openTrip {
            if let last = open.lastPointMilliseconds {
                let gap = drive.epochs[deciding].time.seconds(since: UTCTime(nanosecondsSinceEpoch: last * 1_000_000))
                expected = abs(gap - settings.resumeWithin) < 1 ? "either" : gap <= settings.resumeWithin ? "resume" : "close"
            } else {
                expected = "close"
            }
        } else {
            expected = "start"
        }

        // Power on.
        let killAfter = final ? 2.0 : settings.maxLife * uniform()
        let daemon = try startDaemon(round: round)
        let watcher = FixWatcher(socket: "\(state)/control.sock", name: "trackbench power-cuts \(round)")
        defer { watcher.cancel() }
        let firstFix = ContinuousClock.now + .seconds(30)
        while watcher.snapshot.fixes == 0 {
            guard daemon.isRunning else {
                throw .daemonExitedEarly(round: round, status: daemon.exitStatus, output: daemon.output)
            }
            guard ContinuousClock.now < firstFix else { daemon.stop(); throw .noFix(round: round, seconds: 30) }
            try? await Task.sleep(for: .milliseconds(2))
        }
        try? await Task.sleep(for: .milliseconds(Int64(killAfter * 1000)))
        guard daemon.isRunning else {
            throw .daemonExitedEarly(round: round, status: daemon.exitStatus, output: daemon.output)
        }
        // Power off: SIGKILL, or at the end an orderly stop (SIGTERM, as at shutdown).
        var violations: [String] = []
        if final {
            let stopped = await (try? offload { daemon.stop(grace: 30); return daemon.exitStatus }) ?? nil
            if stopped != 0 { violations.append("trackd exited with status \(stopped.map(String.init) ?? "?") at SIGTERM") }
        } else {
            kill(daemon.pid, SIGKILL)
            _ = await (try? offload { waitUntil(upTo: 10) { !daemon.isRunning } })
        }
        _ = await watcher.waitForEnd(upTo: 5)
        let seen = watcher.snapshot

        // A card reader's copy.
        let after: LogSnapshot
        do {
            after = try LogSnapshot.read(database: database, copyingInto: settings.work, name: "card")
        } catch {
            return PowerCutRound(round: round, offSeconds: off, expected: expected, outcome: "unreadable", killAfter: killAfter,
                                 fixesSeen: seen.fixes, lastFixSeen: seen.fixTimes.last?.description, movingAtKill: false,
                                 lastPointStored: nil, missingPoints: 0, missingGPSSeconds: 0, missingWallSeconds: 0,
                                 trips: 0, openTrip: nil, violations: ["unreadable copy: \(error)"])
        }
        let decidedBeforeKill = seen.fixTimes.contains { $0 > drive.epochs[deciding].time }
        let outcome = checkTrips(before: before, after: after, expected: expected, decided: decidedBeforeKill,
                                 sawFix: !seen.fixTimes.isEmpty, final: final, resumes: &resumes, violations: &violations)
        if final, let open = after.openTrip { violations.append("trip \(open.id) is still open after an orderly stop") }
        let verify = await (try? offload { [trackctl = settings.trackctl, copy = "\(settings.work)/card.sqlite"] in
            try runProgram(trackctl, ["--db", copy, "verify"])
        })
        if verify?.status != 0 {
            violations.append("trackctl verify: status \(verify.map { String($0.status) } ?? "?"): "
                              + "\((verify?.output ?? "") + (verify?.error ?? ""))".prefix(400))
        }
        if !violations.isEmpty {
            try? FileManager.default.copyItem(atPath: daemon.outputPath, toPath: "\(settings.work)/trackd-round-\(round).log")
            for suffix in ["", "-wal"] {
                try? FileManager.default.copyItem(atPath: "\(settings.work)/card.sqlite\(suffix)",
                                                  toPath: "\(settings.work)/card-round-\(round).sqlite\(suffix)")
            }
        }

        // The accepted track missing: what trackd had received while moving after the running trip's last stored
        // point (the first fixes after a start converge and are not track).
        let lastSeen = seen.fixTimes.max()
        let running = outcome == "not started" || final ? nil : after.openTrip
        var missing = 0
        if let running, let lastSeen {
            let stored = running.lastPointMilliseconds.map { UTCTime(nanosecondsSinceEpoch: $0 * 1_000_000) }
            let received = slice.filter { drive.epochs[$0].time <= lastSeen && drive.epochs[$0].hasPosition }
                .dropFirst(PowerCutHarness.convergingFixes)
            missing = received.filter { index in
                let epoch = drive.epochs[index]
                return epoch.speed >= PowerCutHarness.movingSpeed && stored.map { epoch.time > $0 } ?? true
            }.count
        }
        let movingAtKill = lastSeen.flatMap { time in drive.firstIndex(after: time.adding(seconds: -0.001)) }
            .map { drive.epochs[$0].speed >= PowerCutHarness.movingSpeed } ?? false
        let missingGPS = Double(missing) * drive.epochInterval

        // The next restart: the drive goes on from the log's last point (or the last fix seen).
        if let last = after.openTrip?.lastPointMilliseconds {
            base = UTCTime(nanosecondsSinceEpoch: last * 1_000_000)
        } else if let lastSeen {
            base = lastSeen
        } else {
            base = drive.epochs[slice.lowerBound].time
        }
        before = after
        return PowerCutRound(
            round: round, offSeconds: off, expected: expected, outcome: final ? "final stop: \(outcome)" : outcome,
            killAfter: killAfter, fixesSeen: seen.fixes, lastFixSeen: lastSeen?.description, movingAtKill: movingAtKill,
            lastPointStored: running?.lastPointMilliseconds.map { UTCTime(nanosecondsSinceEpoch: $0 * 1_000_000).description },
            missingPoints: missing, missingGPSSeconds: missingGPS, missingWallSeconds: missingGPS / settings.speed,
            trips: after.trips.count, openTrip: after.openTrip?.id, violations: violations)
    }

    // MARK: - The trips

    /// Checks the trips of `after` against `before` and the documented outcome; what became of the open trip.
    private func checkTrips(before: LogSnapshot, after: LogSnapshot, expected: String, decided: Bool, sawFix: Bool,
                            final: Bool, resumes: inout [Int64: Int], violations: inout [String]) -> String {
        if after.integrity != "ok" { violations.append("integrity_check: \(after.integrity.prefix(300))") }
        let ids = after.trips.map(\.id)
        if ids != (ids.isEmpty ? [] : Array(1...Int64(ids.count))) {
            violations.append("trip numbers are not continuous: \(ids)")
        }
        let open = after.trips.filter { $0.state == "open" }
        if open.count > 1 { violations.append("\(open.count) trips open at once: \(open.map(\.id))") }
        if let last = open.first, last.id != ids.last { violations.append("trip \(last.id) is open but not the newest") }
        if after.trips.count > before.trips.count + 1 {
            violations.append("\(after.trips.count - before.trips.count) trips appeared in one round")
        }
        for old in before.trips {
            guard let now = after.trips.first(where: { $0.id == old.id }) else {
                violations.append("trip \(old.id) was lost")
                continue
            }
            if old.state != "open", now != old { violations.append("closed trip \(old.id) changed: \(old) → \(now)") }
            if now.points < old.points { violations.append("trip \(old.id) lost committed points: \(old.points) → \(now.points)") }
            if let was = old.lastPointMilliseconds, (now.lastPointMilliseconds ?? 0) < was {
                violations.append("trip \(old.id) lost its last committed point")
            }
        }
        let doubled = after.duplicatedGaps.filter { !before.duplicatedGaps.contains($0) }
        if !doubled.isEmpty { violations.append("outage counted twice: \(doubled.joined(separator: "; "))") }
        if after.duplicatedPointTimes > 0 { violations.append("\(after.duplicatedPointTimes) track-point times stored twice") }
        for trip in after.trips where trip.endReason == "power-lost" && trip.powerLostEvents != 1 {
            violations.append("trip \(trip.id) closed after a power cut with \(trip.powerLostEvents) power-lost events")
        }

        // The trip left open by the previous cut.
        var outcome: String
        if let left = before.openTrip, let now = after.trips.first(where: { $0.id == left.id }) {
            if now.resumedEvents == left.resumedEvents + 1 {
                outcome = "resumed"
                resumes[left.id, default: 0] += 1
                if now.gapCount < left.gapCount + 1 { violations.append("trip \(left.id) resumed without an outage recorded") }
            } else if now.resumedEvents != left.resumedEvents {
                outcome = "resumed \(now.resumedEvents - left.resumedEvents) times"
            } else if now.state == "closed" {
                outcome = "closed"
                if now.endReason != "power-lost" { violations.append("trip \(left.id) closed with end reason \(now.endReason ?? "none")") }
                if let last = left.lastPointMilliseconds,
                   now.end.flatMap(UTCTime.init(iso8601:)) != UTCTime(nanosecondsSinceEpoch: last * 1_000_000) {
                    violations.append("trip \(left.id) closed at \(now.end ?? "no time"), not at its last stored point")
                }
                if now.points != left.points { violations.append("trip \(left.id) got points while closing after the cut") }
                if decided, !final, after.openTrip == nil {
                    violations.append("no new trip was started after trip \(left.id) was closed")
                }
            } else {
                // A resume is committed with the first points after it; a close at once.
                outcome = "undecided"
                if now.points != left.points { violations.append("trip \(left.id) got points after the cut without a resume") }
                if decided, expected == "close" {
                    violations.append("trip \(left.id): the first usable fix was handled but the trip was not closed")
                }
            }
            if expected != "either", (outcome == "closed" && expected != "close") || (outcome == "resumed" && expected != "resume") {
                violations.append("trip \(left.id) \(outcome), but docs/storage.md says \(expected)")
            }
        } else {
            outcome = after.trips.count > before.trips.count ? "started" : "not started"
            if outcome == "not started", sawFix { violations.append("--auto-start started no trip") }
        }
        for trip in after.trips where trip.resumedEvents != resumes[trip.id, default: 0] {
            violations.append("trip \(trip.id) has \(trip.resumedEvents) resumed events for \(resumes[trip.id, default: 0]) resumes")
        }
        return outcome
    }

    // MARK: - Pieces

    private func startDaemon(round: Int) throws(HarnessError) -> TestSubprocess {
        // The socket a killed trackd left behind would read as this one being up.
        try? FileManager.default.removeItem(atPath: "\(state)/control.sock")
        return try DaemonLauncher.start(
            settings.trackd,
            arguments: ["--source", "file://\(settings.work)/slice.nmea?speed=\(settings.speed)", "--state-dir", state,
                        "--config", "\(settings.work)/trackd.yaml", "--auto-start", "business", "--log-level", "notice"],
            outputPath: "\(settings.work)/trackd.log", round: round, socket: "\(state)/control.sock")
    }

    /// A seeded draw in [0, 1).
    private mutating func uniform() -> Double {
        Double(random.next() >> 11) / Double(UInt64(1) << 53)
    }
}
