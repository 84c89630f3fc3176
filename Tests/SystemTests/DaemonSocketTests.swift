#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The real daemon's socket with awkward clients: one that watches and never reads, several at once.
@Suite(.serialized)
struct DaemonSocketTests {
    @Test func aWatcherThatNeverReadsDoesNotStallTheDaemon() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10", autoStart: "business")
        // A client asks to watch and then never reads: 800 fix notifications (about 350 KB) are more than the
        // socket buffers hold, so the daemon's writes to it stall and its watcher buffer overflows.
        let stuck = try RawClient(path: daemon.socket)
        try stuck.send(#"{"jsonrpc":"2.0","id":1,"method":"watch"}"# + "\n")
        defer { stuck.close() }

        // The daemon goes on: fixes are processed and stored, other clients are answered.
        var epochs: [Int] = []
        let progressed = await poll(upTo: 120) {
            let status = try? json(await trackctl(["--socket", daemon.socket, "--json", "status"]).output) as? [String: Any]
            if let count = status?["epochs"] as? Int { epochs.append(count) }
            return (epochs.last ?? 0) > 800
        }
        // (On a failure, trackd's own last lines: twice, on days other than today, it stalled and then went away.)
        #expect(progressed, "the drive kept being processed: \(epochs.suffix(5)); trackd: \(daemon.process.output.suffix(3000))")
        let stopped = try await trackctl(["--socket", daemon.socket, "stop", "--purpose", "Visit"])
        #expect(stopped.status == 0, "\(stopped.error); trackd: \(daemon.process.output.suffix(3000))")
        #expect(try await query(daemon.database, "SELECT COUNT(*) FROM track_point") != "0")
        await daemon.stop()
    }

    @Test func tripsListsTheRunningTripWithItsDistanceSoFar() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10", autoStart: "business")
        let driven = await poll(upTo: 120) {
            let status = try? json(await trackctl(["--socket", daemon.socket, "--json", "status"]).output) as? [String: Any]
            return ((status?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 1000
        }
        #expect(driven, "the trip got past its first kilometre")
        let listed = try json(await trackctl(["--socket", daemon.socket, "--json", "trips", "--all"]).output) as? [[String: Any]]
        let running = try #require(listed?.first { $0["state"] as? String == "open" }, "\(listed ?? [])")
        // The log has the trip up to its last committed point: more than nothing, no more than the engine knows.
        let listedDistance = running["distance_m"] as? Double ?? 0
        let status = try json(await trackctl(["--socket", daemon.socket, "--json", "status"]).output) as? [String: Any]
        let engineDistance = (status?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0
        #expect(listedDistance > 500 && listedDistance <= engineDistance, "\(listedDistance) listed, \(engineDistance) in the engine")
        let text = try await trackctl(["--socket", daemon.socket, "trips", "--all"]).output
        #expect(text.contains("open: km so far"), "\(text)")
        await daemon.stop()
    }

    @Test func aWatcherSeesFixesAndTripsStartAndEnd() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let watcher = try TestSubprocess(executable: Products.trackctl, arguments: ["--socket", daemon.socket, "watch"],
                                         outputPath: folder.file("watch.txt"))
        #expect(await poll(upTo: 30) { watcher.output.contains("km/h") }, "fixes: \(watcher.output.suffix(300))")
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--business", "--purpose", "Visit"]).status == 0)
        #expect(await poll(upTo: 30) { watcher.output.contains("trip 1 started") }, "\(watcher.output.suffix(300))")
        #expect(try await trackctl(["--socket", daemon.socket, "stop"]).status == 0)
        let ended = await poll(upTo: 30) { watcher.output.contains("trip 1 ended") }
        #expect(watcher.output.contains("trip 1 started: business (Visit)"), "\(watcher.output.suffix(300))")
        #expect(ended, "\(watcher.output.suffix(300))")
        let _ = try? await offload { watcher.stop() }
        await daemon.stop()
    }

    @Test func clientsAtOnceAreEachAnsweredInFull() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4")
        let socket = daemon.socket
        let results = try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for client in 0..<8 {
                group.addTask {
                    try await trackctl(["--socket", socket, "--json"] + (client.isMultiple(of: 2) ? ["status"] : ["trips", "--all"]))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        for result in results {
            #expect(result.status == 0, "\(result.error)")
            #expect((try? json(result.output)) != nil, "a whole JSON answer: \(result.output.prefix(80))")
        }
        await daemon.stop()
    }
}

/// A client on a raw Unix socket, for behaving badly on purpose.
final class RawClient {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            let bytes = Array(path.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw SubprocessError("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    }

    func send(_ text: String) throws {
        let written = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
        guard written == text.utf8.count else { throw SubprocessError("short write to the socket") }
    }

    func close() {
        Glibc.close(descriptor)
    }
}
