#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// trackd on a real gpsd that fails: gpsd absent when trackd starts, and killed and restarted in the middle of a
/// trip while the receiver goes on sending (gpsd reads a pseudo-terminal into which `trackctl play` plays a drive).
@Suite(.serialized)
struct GPSDFaultTests {
    @Test func waitsForGpsdAtStartThenCarriesTheTripThroughGpsdRestartsAndRecordsTheGaps() async throws {
        let folder = try TemporaryFolder()
        let port = try LoopbackPort.free()
        let device = folder.file("gps0")
        // The receiver: the demo drive at 5×, from the end of its first stop (08:01:00), driving most of the time. Its
        // 15 minutes last 3 minutes from gpsd's first read: the budget of the whole test, which a busy machine's slow
        // starts eat into (at 10×, in CI's full suite, the drive once ended before the first round's restart).
        let drive = folder.file("drive.nmea")
        try DriveLog.cut(DriveLog.demo, after: 8 * 3600 + 55, to: drive)
        let receiver = try TestSubprocess(executable: Products.trackctl,
                                          arguments: ["play", drive, "--link", device, "--speed", "5"],
                                          outputPath: folder.file("play.log"))
        defer { receiver.stop() }
        #expect(await poll(upTo: 10) { FileManager.default.fileExists(atPath: device) })

        // No gpsd yet: trackd starts anyway and says what it waits for.
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:\(port)", autoStart: "business")
        let waiting = await poll(upTo: 20) {
            (try? await sourceState(daemon))?.detail.hasPrefix("waiting for gpsd at 127.0.0.1:\(port)") == true
        }
        #expect(waiting, "\(daemon.process.output)")

        var gpsd = try GPSD(port: port, device: device, log: folder.file("gpsd-0.log"))
        #expect(await poll(upTo: 30) { (try? await tripDistance(daemon)) ?? 0 > 100 }, "the trip starts and the car drives")

        for round in 1...2 {
            // gpsd dies (a crash, not a clean stop) and comes back once trackd has been without a fix for 6 s of
            // its own clock (30 s of the drive at 5×; the terminal keeps a few seconds of it for gpsd's return);
            // the receiver goes on. The wait is for trackd's state, not a sleep: on a slow machine it lasts longer.
            gpsd.kill()
            #expect(await poll(upTo: 20) { (try? await sourceState(daemon))?.state == "lost" }, "round \(round)")
            #expect(await poll(upTo: 60) { (try? await lastFixAge(daemon)) ?? 0 >= 6 }, "round \(round)")
            gpsd = try GPSD(port: port, device: device, log: folder.file("gpsd-\(round).log"))
            #expect(await poll(upTo: 20) { (try? await sourceState(daemon))?.state == "connected" }, "round \(round)")
            let before = (try? await tripDistance(daemon)) ?? 0
            #expect(await poll(upTo: 30) { (try? await tripDistance(daemon)) ?? 0 > before + 50 },
                    "round \(round): the same trip goes on counting")
            #expect(receiver.isRunning, "round \(round): the drive had not ended (it does at 08:16 of its time)")
        }
        await daemon.stop()
        gpsd.kill()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        let trips = try await query(daemon.database, "SELECT count(*) || ' ' || max(state) || ' ' || max(gap_count) FROM trip")
        let parts = trips.split(separator: " ")
        #expect(parts.count == 3 && parts[0] == "1" && parts[1] == "closed", "one trip, closed: \(trips)")
        // Whether an outage leaves a hole in GPS time depends on how much of what the receiver sent meanwhile gpsd
        // reads from the terminal's buffer when it is back (scripts/fault-gpsd: 19 holes in 20 outages).
        #expect(parts.count == 3 && (1...2).contains(Int(parts[2]) ?? 0), "the outages are gaps of the trip: \(trips)")
        #expect(daemon.process.output.components(separatedBy: "source lost").count - 1 == 3,
                "lost at start (waiting), then once per kill, not once per attempt")
    }

    /// The daemon's source state (`connected`, `lost`, …) and its detail.
    private func sourceState(_ daemon: Trackd) async throws -> (state: String, detail: String)? {
        let result = try await trackctl(["--socket", daemon.socket, "--json", "status"])
        guard result.status == 0, let status = try json(result.output) as? [String: Any],
              let source = status["source"] as? [String: Any] else { return nil }
        return (source["state"] as? String ?? "", source["detail"] as? String ?? "")
    }

    /// How long ago trackd's last fix arrived, seconds (its monotonic clock); `nil` before the first.
    private func lastFixAge(_ daemon: Trackd) async throws -> Double? {
        (await daemon.status())?["last_fix_age"] as? Double
    }

    /// The running trip's distance, metres; `nil` without one.
    private func tripDistance(_ daemon: Trackd) async throws -> Double? {
        let result = try await trackctl(["--socket", daemon.socket, "--json", "status"])
        guard result.status == 0, let status = try json(result.output) as? [String: Any] else { return nil }
        return (status["trip"] as? [String: Any])?["distance_m"] as? Double
    }
}

/// A real gpsd on 127.0.0.1:`port` reading one serial device, in the foreground so that it can be killed.
private final class GPSD {
    static let path = "/usr/sbin/gpsd"
    private let process: TestSubprocess
    let port: Int

    init(port: Int, device: String, log: String) throws {
        guard FileManager.default.isExecutableFile(atPath: GPSD.path) else {
            throw SubprocessError("\(GPSD.path) is missing: install it with `apt-get install -y gpsd`")
        }
        self.port = port
        // -N: foreground; -n: read the device without waiting for a client; -S: the port; -F: its control socket.
        process = try TestSubprocess(executable: GPSD.path,
                                     arguments: ["-N", "-n", "-S", String(port), "-F", "\(log).sock", device],
                                     outputPath: log)
    }

    /// Kills gpsd at once (SIGKILL: a crash), and waits until its port is closed.
    func kill() {
        process.send(SIGKILL, group: true)
        _ = waitUntil(upTo: 10) { !LoopbackPort.acceptsConnections(port) }
        process.stop()
    }
}
