#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The control socket's door: who may read and who may change the log, told by SO_PEERCRED.
@Suite(.serialized)
struct SocketAccessTests {
    @Test(.enabled(if: geteuid() == 0, "needs root, to run trackctl as another user"))
    func aUserOutsideTheControlGroupMayReadButNotChangeTheLog() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4",
                                extraArguments: ["--control-group", "no-such-group-for-trackd"])
        // Open the door wider than systemd would (trackd made the folder 0750 and the socket 0660), so that the
        // check behind it is what answers. Once trackd answers: it sets the socket's mode just after the file appears,
        // and a chmod before that was undone now and then (a fresh clone's run: nobody got "permission denied").
        #expect(await poll(upTo: 30) { await daemon.status() != nil }, "\(daemon.process.output)")
        chmod(folder.path, 0o755)
        chmod(daemon.socket, 0o666)

        let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", Products.trackctl, "--socket", daemon.socket]
        let status = try await run("/usr/bin/setpriv", asNobody + ["--json", "status"])
        #expect(status.status == 0, "reading is open: \(status.error)")
        let start = try await run("/usr/bin/setpriv", asNobody + ["start", "--business", "--purpose", "x"])
        #expect(start.status == 1)
        #expect(start.error.contains("nobody may read the log but not change it"), "\(start.error)")
        #expect(start.error.contains("'no-such-group-for-trackd' group"))
        #expect(try await query(daemon.database, "SELECT COUNT(*) FROM trip") == "0", "nothing was started")

        let asRoot = try await trackctl(["--socket", daemon.socket, "start", "--business", "--purpose", "x"])
        #expect(asRoot.status == 0, "root may: \(asRoot.error)")
        let revision = try await trackctl(["--socket", daemon.socket, "edit", "1", "--private", "--reason", "mine"])
        #expect(revision.status == 0)
        #expect(try await query(daemon.database, "SELECT user FROM revision WHERE field = 'kind'") == "root",
                "the change history names the Unix user from the socket")
        await daemon.stop()
    }
}
