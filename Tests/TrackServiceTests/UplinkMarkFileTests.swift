#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackService

/// The runtime mark on tmpfs: what an uplink's receiver acknowledged, kept across a restart of the daemon.
struct UplinkMarkFileTests {
    private let mark = UplinkMark(
        acknowledged: UplinkCursor(tripID: TripID(4), started: true, pointSeq: 77, eventID: 0, ended: false),
        ahead: [UplinkPosition(tripID: TripID(4), part: .point(120))])

    /// A log file on disk and a folder in memory (`/dev/shm`, tmpfs on Linux).
    private func folders() throws -> (disk: TemporaryFolder, memory: TemporaryFolder, database: String) {
        let disk = try TemporaryFolder()
        let database = disk.file("trackd.sqlite")
        #expect(FileManager.default.createFile(atPath: database, contents: Data("not really a log".utf8)))
        return (disk, try TemporaryFolder(in: "/dev/shm"), database)
    }

    @Test func aMarkWrittenByOneDaemonIsReadByTheNext() throws {
        let (disk, memory, database) = try folders()
        let first = try UplinkMarkFile(folder: memory.path, database: database, transport: "mqtt")
        #expect(first.read() == nil)
        #expect(first.write(UplinkMark(acknowledged: .origin)))
        #expect(first.write(mark))
        let next = try UplinkMarkFile(folder: memory.path, database: database, transport: "mqtt")
        #expect(next.read() == mark)
        let other = try UplinkMarkFile(folder: memory.path, database: database, transport: "osmand")
        #expect(other.read() == nil)
        withExtendedLifetime(disk) {}
    }

    @Test func aMarkIsNotTakenForAnotherLogFile() throws {
        let (disk, memory, database) = try folders()
        try UplinkMarkFile(folder: memory.path, database: database, transport: "mqtt").write(mark)
        let replacement = disk.file("replacement.sqlite")
        #expect(FileManager.default.createFile(atPath: replacement, contents: Data("another log".utf8)))
        #expect(rename(replacement, database) == 0)   // a log put in its place: a file of its own
        #expect(try UplinkMarkFile(folder: memory.path, database: database, transport: "mqtt").read() == nil)
    }

    @Test func aFolderOnDiskIsRefusedSoThatTheCardIsNotWrittenAtEveryAcknowledgement() throws {
        let (disk, _, database) = try folders()
        #expect(throws: UplinkMarkFile.Unavailable.self) {
            try UplinkMarkFile(folder: disk.path, database: database, transport: "mqtt")
        }
        #expect(throws: UplinkMarkFile.Unavailable.self) {
            try UplinkMarkFile(folder: disk.file("missing"), database: database, transport: "mqtt")
        }
    }
}
