#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore

/// The uplink through power cuts (issue 22): trackd records a drive played fast with its uplink to a real mosquitto,
/// and is killed with SIGKILL at seeded random instants while the broker goes down and comes back, restarted each
/// time where the drive has got to. After an orderly last round, once trackd says its backlog is empty, a subscriber
/// that held a persistent session all along must have every point of the log, every trip's start and end, and
/// nothing twice but what the kills cut off in flight.
struct UplinkKillHarness {
    struct Settings: Sendable {
        var trackd: String
        var trackctl: String
        var drive: RecordedDrive
        var work: String
        var seed: UInt64
        var kills: Int
        var speed: Double
        /// Kills come at a uniformly drawn instant up to this many wall seconds after trackd is up.
        var maxLife: Double
        /// Share of rounds that begin with the broker down; in each round the broker may also change once.
        var brokerDownShare = 0.4
        /// `uplink.watermark_interval`; `nil` leaves trackd's default.
        var watermarkInterval: Double?
        /// Whether trackd gets a runtime folder in memory (`/dev/shm`) for what its uplink acknowledged.
        var memoryMark = true
    }

    static let device = "harness-car"

    let settings: Settings
    private var random: SplitMix64

    init(settings: Settings) {
        self.settings = settings
        random = SplitMix64(seed: settings.seed)
    }

    private var state: String { "\(settings.work)/state" }
    private var database: String { "\(state)/trackd.sqlite" }
    private var socket: String { "\(state)/control.sock" }
    /// The runtime folder trackd gets (systemd's `RuntimeDirectory`, on tmpfs).
    private var runtime: String { "/dev/shm/trackbench-\(getpid())" }

    mutating func run(progress: (String) -> Void) async throws(HarnessError) -> UplinkKillSummary {
        let broker: MosquittoBroker
        let subscriber: MosquittoSubscriber
        do {
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(settings.work)/broker", withIntermediateDirectories: true)
            broker = try MosquittoBroker(folder: "\(settings.work)/broker")
            subscriber = try MosquittoSubscriber(port: broker.port, topic: "owntracks/#",
                                                 outputPath: "\(settings.work)/received.txt")
        } catch {
            throw .unwritable(path: settings.work, reason: "\(error)")
        }
        if settings.memoryMark {
            do {
                try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            } catch {
                throw .unwritable(path: runtime, reason: "\(error)")
            }
        }
        defer {
            subscriber.stop()
            broker.stop()
            if settings.memoryMark { try? FileManager.default.removeItem(atPath: runtime) }
        }
        guard waitUntil(upTo: 20, { broker.hasSubscription("trackd-test-subscriber", "owntracks/#") }) else {
            throw .unreadable(path: broker.folder, reason: "the subscriber did not subscribe: \(broker.log.suffix(500))")
        }
        var yaml = "uplink:\n  mqtt: mqtt://127.0.0.1:\(broker.port)\n  device: \(Self.device)\n  reconnect_max: 1\n"
        if let interval = settings.watermarkInterval { yaml += "  watermark_interval: \(interval)\n" }
        do {
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: "\(settings.work)/trackd.yaml"))
        } catch {
            throw .unwritable(path: settings.work, reason: "\(error)")
        }

        var base = settings.drive.epochs[0].time.adding(seconds: -1)
        var brokerDownRounds = 0
        var drainSeconds = 0.0
        var roundEnds: [Int] = []   // messages the subscriber had when each round ended
        for round in 1...(settings.kills + 1) {
            let final = round > settings.kills
            let down = !final && uniform() < settings.brokerDownShare
            if down { brokerDownRounds += 1 }
            setBroker(broker, up: !down)
            guard let first = settings.drive.firstIndex(after: base.adding(seconds: 2)) else {
                throw .driveTooShort(path: settings.drive.path, needed: base.adding(seconds: 2).description)
            }
            let seconds = final ? 60 * settings.speed : (settings.maxLife + 10) * settings.speed + 30
            _ = try settings.drive.writeSlice(from: first, seconds: seconds, to: "\(settings.work)/slice.nmea")
            let daemon = try DaemonLauncher.start(
                settings.trackd,
                arguments: ["--source", "file://\(settings.work)/slice.nmea?speed=\(settings.speed)", "--state-dir", state,
                            "--config", "\(settings.work)/trackd.yaml", "--auto-start", "business", "--log-level", "info",
                            "--socket", socket],
                environment: settings.memoryMark ? ["RUNTIME_DIRECTORY": runtime] : [:],
                outputPath: "\(settings.work)/trackd-\(round).log", round: round, socket: socket)
            var life = settings.maxLife
            if final {
                try? await Task.sleep(for: .milliseconds(Int64(life * 1000)))
                let started = ContinuousClock.now
                let drained = await waitForDrain(upTo: 300)
                drainSeconds = Double((ContinuousClock.now - started).components.seconds)
                _ = await (try? offload { daemon.stop(grace: 30) })
                progress("round \(round): broker up, orderly stop \(drained ? "after the backlog drained" : "with a backlog left") "
                         + "in \(Int(drainSeconds)) s")
            } else {
                life = settings.maxLife * uniform()
                let flipAt = uniform() < 0.5 ? life * uniform() : nil
                if let flipAt {
                    try? await Task.sleep(for: .milliseconds(Int64(flipAt * 1000)))
                    setBroker(broker, up: !broker.isRunning)
                    try? await Task.sleep(for: .milliseconds(Int64((life - flipAt) * 1000)))
                } else {
                    try? await Task.sleep(for: .milliseconds(Int64(life * 1000)))
                }
                kill(daemon.pid, SIGKILL)
                _ = await (try? offload { waitUntil(upTo: 10) { !daemon.isRunning } })
                try? await Task.sleep(for: .milliseconds(300))   // the subscriber takes what was on its way
                roundEnds.append(subscriber.messages.count)
                progress("round \(round): broker \(down ? "down" : "up")\(flipAt == nil ? "" : ", then \(broker.isRunning ? "up" : "down")"), "
                         + "killed \(String(format: "%.2f", life)) s after start")
            }
            // The drive goes on from where it got to (the receiver kept running while the power was off): past the
            // log's last point, and at least as far as trackd's life played.
            let played = base.adding(seconds: life * settings.speed)
            base = max(lastPointTime() ?? played, played)
        }
        return compare(subscriber: subscriber, brokerDownRounds: brokerDownRounds, drainSeconds: drainSeconds,
                       roundEnds: roundEnds)
    }

    /// Waits until trackd's status says the uplink is connected with nothing in flight and no backlog.
    private func waitForDrain(upTo seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let result = try? await offload({ [trackctl = settings.trackctl, socket] in
                try runProgram(trackctl, ["--socket", socket, "--json", "status"])
            }), let data = result.output.data(using: .utf8),
               let status = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let uplink = status["uplink"] as? [String: Any],
               uplink["state"] as? String == "connected", uplink["backlog_points"] as? Int == 0,
               uplink["in_flight"] as? Int == 0 {
                return true
            }
            try? await Task.sleep(for: .milliseconds(500))
        }
        return false
    }

    private func setBroker(_ broker: MosquittoBroker, up: Bool) {
        if up && !broker.isRunning { try? broker.start() }
        if !up && broker.isRunning { broker.stop() }
    }

    private func lastPointTime() -> UTCTime? {
        guard let text = try? sqlite3(database, "SELECT max(time_ms) FROM track_point"),
              let milliseconds = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return UTCTime(nanosecondsSinceEpoch: milliseconds * 1_000_000)
    }

    /// The log against what the subscriber received.
    private func compare(subscriber: MosquittoSubscriber, brokerDownRounds: Int, drainSeconds: Double,
                         roundEnds: [Int]) -> UplinkKillSummary {
        let device = Self.device
        let points = ((try? sqlite3(database, "SELECT trip_id || '/' || seq FROM track_point ORDER BY trip_id, seq")) ?? "")
            .split(separator: "\n").map { "\(device)/\($0)" }
        let trips = ((try? sqlite3(database, "SELECT id || '|' || state || '|' || (start_time IS NOT NULL) FROM trip WHERE source = 'gps'")) ?? "")
            .split(separator: "\n").map { $0.split(separator: "|").map(String.init) }
        var expectedOthers: [String] = []
        for trip in trips where trip.count == 3 {
            if trip[2] == "1" { expectedOthers.append("\(device)/\(trip[0])/start") }
            if trip[1] == "closed" { expectedOthers.append("\(device)/\(trip[0])/end") }
        }
        // Each message's id, in the order received (`nil`: the car's state, which has none).
        let ids: [String?] = subscriber.messages.map { message in
            guard !message.topic.hasSuffix("/state"), let data = message.payload.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return object["id"] as? String
        }
        let received = ids.compactMap { $0 }
        let unique = Set(received)
        // The repeats each round received: messages whose id had arrived before.
        var seen = Set<String>()
        var repeatsByRound: [Int] = []
        var index = 0
        for end in roundEnds + [Int.max] {
            var repeats = 0
            while index < ids.count, index < end {
                if let id = ids[index], !seen.insert(id).inserted { repeats += 1 }
                index += 1
            }
            repeatsByRound.append(repeats)
        }
        let missingPoints = points.filter { !unique.contains($0) }
        let missingOthers = expectedOthers.filter { !unique.contains($0) }
        return UplinkKillSummary(
            kills: settings.kills, brokerDownRounds: brokerDownRounds, pointsInLog: points.count, trips: trips.count,
            messagesReceived: received.count, uniqueReceived: unique.count, duplicates: received.count - unique.count,
            missingPoints: missingPoints.count, missingTripMessages: missingOthers.count,
            firstMissing: Array((missingPoints + missingOthers).prefix(10)), drainSeconds: drainSeconds,
            repeatsByRound: repeatsByRound, memoryMark: settings.memoryMark)
    }

    private mutating func uniform() -> Double {
        Double(random.next() >> 11) / Double(UInt64(1) << 53)
    }
}
