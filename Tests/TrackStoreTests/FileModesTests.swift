#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import TrackStore
import TrackCore

/// What trackd keeps on the card is for trackd and its group only, whatever the umask: folders 0750, files 0640;
/// what exists is tightened, never loosened.
struct FileModesTests {
    @Test func aNewFolderIsForTrackdAndItsGroupOnly() throws {
        let folder = try TemporaryFolder()
        let state = folder.file("var/lib/trackd")
        try FileModes.prepareFolder(state)
        #expect(mode(of: state) == 0o750)
    }

    @Test func aFolderOpenToEveryoneIsClosedButATighterOneStays() throws {
        let folder = try TemporaryFolder()
        let open = folder.file("open")
        let tight = folder.file("tight")
        #expect(mkdir(open, 0o700) == 0 && chmod(open, 0o777) == 0)
        // chmod, not mkdir's mode alone: the umask is the process's, and tests binding a control socket change it
        // for an instant while this runs.
        #expect(mkdir(tight, 0o700) == 0 && chmod(tight, 0o700) == 0)
        try FileModes.prepareFolder(open)
        try FileModes.prepareFolder(tight)
        #expect(mode(of: open) == 0o750)
        #expect(mode(of: tight) == 0o700)
    }

    @Test func aFileWhereAFolderShouldBeIsAnError() throws {
        let folder = try TemporaryFolder()
        let file = folder.file("state")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: FileModeError.notAFolder(file)) { try FileModes.prepareFolder(file) }
    }

    @Test func aNewLogAndItsWALAndSharedMemoryAreReadableByTheGroupOnly() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        _ = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        #expect(mode(of: path) == 0o640)
        #expect(mode(of: path + "-wal") == 0o640)
        #expect(mode(of: path + "-shm") == 0o640)
    }

    @Test func anExistingLogOpenToEveryoneIsTightenedWhenOpened() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        do {
            let log = try MileageLog.open(path: path)
            let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
            try await TrackPointFile(path: TrackPointFile.path(forLog: path))
                .append([], ends: TripEnds(start: Coordinate(latitude: 59.4, longitude: 24.7)), tripID: trip.id)
        }
        for file in [path, path + "-wal", path + "-shm", path + "-points"] where FileManager.default.fileExists(atPath: file) {
            #expect(chmod(file, 0o666) == 0)
        }
        _ = try MileageLog.open(path: path)
        #expect(mode(of: path) == 0o640)
        #expect(mode(of: path + "-points") == 0o640, "the point file too")
        for file in [path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            #expect(mode(of: file) == 0o640, "\(file)")
        }
    }

    private func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }
}
