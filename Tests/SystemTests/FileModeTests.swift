#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// trackd started by hand outside systemd, under the common umask 022: the log, its folder and the exports hold
/// where a person drove, so they are for trackd and its group only (0640 files, 0750 folders), as systemd's
/// `UMask=0027` and `StateDirectoryMode=0750` would make them.
struct FileModeTests {
    @Test func theLogTheStateFolderAndTheExportsAreClosedToOthersUnderUmask022() async throws {
        let folder = try TemporaryFolder()
        let state = folder.file("state")
        try Data().write(to: URL(fileURLWithPath: folder.file("trackd.yaml")))
        // The drive, then an hour parked: trackd still runs when the files are looked at, however slow the machine
        // (the log's -wal and -shm, and the socket, go when it ends).
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let daemon = try TestSubprocess(
            executable: "/bin/sh",
            arguments: ["-c", "umask 022; exec \"$0\" \"$@\"", Products.trackd, "--source", "file://\(drive)?speed=20",
                        "--state-dir", state, "--config", folder.file("trackd.yaml"), "--auto-start", "business"],
            outputPath: folder.file("trackd.log"))
        defer { daemon.stop() }
        let database = "\(state)/trackd.sqlite"
        // While it runs (the -wal and -shm exist only while the log is open; the point file from the trip's second
        // commit, and with it the points after the first commit's, which the log takes only at the trip's close).
        let running = await poll(upTo: 60) {
            (try? await StoredTrack.of(database).count) ?? 0 > 10 && FileManager.default.fileExists(atPath: database + "-points")
        }
        #expect(running, "\(daemon.output)")
        #expect(mode(of: state) == 0o750)
        for file in ["trackd.sqlite", "trackd.sqlite-wal", "trackd.sqlite-shm", "trackd.sqlite-points", "trackd.lock"] {
            #expect(mode(of: "\(state)/\(file)") == 0o640, "\(file)")
        }
        #expect(mode(of: "\(state)/control.sock") == 0o660)
        _ = try await offload { daemon.stop() }
        #expect(daemon.exitStatus == 0, "\(daemon.output)")
        // The trip closed at the stop: the month's exports.
        #expect(mode(of: "\(state)/exports") == 0o750)
        for file in ["2026-11.csv", "2026-11-22-trip-1.gpx"] {
            #expect(mode(of: "\(state)/exports/\(file)") == 0o640, "\(file)")
        }
    }

    private func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
