import Foundation
import TestSupport
import Testing
import TrackCore

/// Privacy through the real daemon: a private trip recorded without its route, a business trip reclassified
/// private, and `trackctl erase` of the profile and of everything — searched for in the raw bytes of the card's files.
@Suite(.serialized)
struct PrivacyTests {
    /// Every position of the bundled drive, from its GGA sentences.
    static func driveCoordinates() throws -> [Coordinate] {
        try String(contentsOfFile: DriveLog.demo, encoding: .utf8).components(separatedBy: "\r\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard line.hasPrefix("$GNGGA") || line.hasPrefix("$GPGGA"), fields.count > 5,
                  let latitude = Self.degrees(fields[2], hemisphere: fields[3], width: 2),
                  let longitude = Self.degrees(fields[4], hemisphere: fields[5], width: 3)
            else { return nil }
            return Coordinate(latitude: latitude, longitude: longitude)
        }
    }

    private static func degrees(_ text: Substring, hemisphere: Substring, width: Int) -> Double? {
        guard text.count > width, let whole = Double(text.prefix(width)), let minutes = Double(text.dropFirst(width)) else {
            return nil
        }
        let value = whole + minutes / 60
        return hemisphere == "S" || hemisphere == "W" ? -value : value
    }

    /// The log, its WAL and shared memory, its point file, and the exports: what a card reader finds in the state
    /// folder.
    static func cardFiles(_ daemon: Trackd) -> StoredBytes {
        StoredBytes(log: daemon.database, folders: ["\(daemon.state)/exports"])
    }

    @Test func aPrivateDriveInPrivacyModeLeavesNoCoordinateOnTheCardAndMeasuresItsDistance() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=20",
                                            autoStart: "private")
        // The recording ends, trackd with it: the trip closes at its last fix.
        let ended = await poll(upTo: 180) { !daemon.process.isRunning }
        #expect(ended, "\(daemon.process.output)")
        let points = try await query(daemon.database, "SELECT COUNT(*) FROM track_point")
        #expect(points.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let found = Self.cardFiles(daemon).coordinates(of: try Self.driveCoordinates())
        #expect(found.isEmpty, "\(found.prefix(5))")

        let trips = try json(await trackctl(["--db", daemon.database, "--json", "trips", "--all"]).output) as? [[String: Any]]
        let trip = try #require(trips?.first)
        #expect(trip["kind"] as? String == "private")
        #expect(trip["route"] as? String == "withheld")
        #expect(trip["start_position"] == nil && trip["end_position"] == nil)
        // The engine measured it as always: the offline replay of the same drive says how far.
        let replay = try json(await trackctl(["replay", "--json", DriveLog.demo]).output) as? [String: Any]
        let measured = try #require(replay?["distance_m"] as? Double)
        let logged = try #require(trip["distance_m"] as? Double)
        #expect(abs(logged - measured) / measured < 0.005, "logged \(logged) m, the engine measures \(measured) m")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    /// Made private by its kind, or as the way to work (a commute is private).
    @Test(arguments: [["--private"], ["--commute"]])
    func aBusinessTripReclassifiedPrivateLosesItsRouteFromTheLogTheWALAndTheExports(flags: [String]) async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business")
        let socket = ["--socket", daemon.socket]
        let drove = await poll(upTo: 180) {
            let status = try? json(await trackctl(socket + ["--json", "status"]).output) as? [String: Any]
            return ((status?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 10_000
        }
        #expect(drove, "\(daemon.process.output)")
        #expect(try await trackctl(socket + ["stop", "--purpose", "Visit to Example Ltd"]).status == 0)
        let coordinates = try Self.driveCoordinates()
        let before = Self.cardFiles(daemon).coordinates(of: coordinates)
        #expect(before.contains { $0.contains("exports/2026-11-22-trip-1.gpx") }, "the search finds the route in the exports")
        #expect(before.contains { $0.hasPrefix(daemon.database + ":") || $0.hasPrefix(daemon.database + "-wal:") },
                "and in the log or its WAL")
        // The trip's close moved its points from the point file into the log; the file keeps its records past its new
        // header until they are written over or zeroed.
        #expect(before.contains { $0.hasPrefix(daemon.database + "-points:") }, "and in the point file")

        let edit = try await trackctl(socket + ["edit", "1"] + flags + ["--reason", "Drove home, not to the client"])
        #expect(edit.status == 0, "\(edit.error)")
        let after = Self.cardFiles(daemon).coordinates(of: coordinates)
        #expect(after.isEmpty, "\(after.prefix(5))")
        let verify = try await trackctl(socket + ["verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        #expect(verify.output.contains("erasures"))
        #expect(verify.output.contains("route of trip 1, now private"), "\(verify.output)")
        let report = try json(await trackctl(socket + ["--json", "verify"]).output) as? [String: Any]
        let erasure = try #require((report?["erasures"] as? [[String: Any]])?.first)
        #expect(erasure["trips"] as? [Int] == [1])
        #expect(erasure["reason"] as? String == "Drove home, not to the client")
        #expect((erasure["track_points"] as? Int ?? 0) > 100)
        await daemon.stop()
    }

    @Test func eraseTakesTheDriversNameThenTheWholeLogAndTrackdKeepsRecording() async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Mari Maasikas", "--plate", "481 BKS"]).status == 0)
        #expect(try await trackctl(socket + ["start", "--business", "--purpose", "Supplier"]).status == 0)
        let drove = await poll(upTo: 180) {
            let status = try? json(await trackctl(socket + ["--json", "status"]).output) as? [String: Any]
            return ((status?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 10_000
        }
        #expect(drove, "\(daemon.process.output)")
        #expect(try await trackctl(socket + ["stop"]).status == 0)
        #expect(!Self.cardFiles(daemon).files(containing: "Maasikas").isEmpty, "the search finds the name before")
        #expect(Self.cardFiles(daemon).coordinates(of: try Self.driveCoordinates()).contains {
            $0.hasPrefix(daemon.database + "-points:")
        }, "and the route in the point file, past its header")

        // Without --yes and without a terminal, nothing happens.
        let unasked = try await trackctl(socket + ["erase", "--profile"])
        #expect(unasked.status != 0)
        #expect(unasked.error.contains("--yes"))
        let profile = try await trackctl(socket + ["erase", "--profile", "--yes", "--reason", "driver left"])
        #expect(profile.status == 0, "\(profile.error)")
        #expect(profile.output.contains("erased the driver, plate and company"), "\(profile.output)")
        for name in ["Maasikas", "481 BKS"] {
            #expect(Self.cardFiles(daemon).files(containing: name).isEmpty, "\(name)")
        }
        let trips = try json(await trackctl(socket + ["--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(trips?.count == 1, "the trips stay")

        // The business trip is inside the retention period: the whole log cannot go, and the error says until when.
        let refused = try await trackctl(socket + ["erase", "--all", "--yes"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("must be kept until 2036-12-31"), "\(refused.error)")
        let code = (try json(await trackctl(socket + ["--json", "erase", "--all", "--yes"]).output) as? [String: Any])
            .flatMap { ($0["error"] as? [String: Any])?["code"] as? Int }
        #expect(code == -32010, "refused as asked, not a storage failure")
        #expect(try await trackctl(socket + ["--json", "trips", "--all"]).output.contains("\"id\":1"))

        let all = try await trackctl(socket + ["erase", "--all", "--yes", "--ignore-retention", "--reason", "car sold"])
        #expect(all.status == 0, "\(all.error)")
        let left = Self.cardFiles(daemon)
        #expect(left.coordinates(of: try Self.driveCoordinates()).isEmpty)
        #expect(left.files(containing: "Supplier").isEmpty && left.files(containing: "Maasikas").isEmpty)
        let empty = try json(await trackctl(socket + ["--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(empty?.isEmpty == true)

        // trackd goes on with the new log: the next trip is trip 1 again, and the log verifies.
        let started = try await trackctl(socket + ["start", "--private"])
        #expect(started.output.contains("trip 1 started"), "\(started.output)\(started.error)")
        #expect(try await trackctl(socket + ["stop"]).status == 0)
        let verify = try await trackctl(socket + ["verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        #expect(verify.output.contains("every trip (1)"), "\(verify.output)")
        await daemon.stop()
    }
}
