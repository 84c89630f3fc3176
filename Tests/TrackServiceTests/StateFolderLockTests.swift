#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import TrackService

/// One trackd per state folder: the lock on `trackd.lock`.
struct StateFolderLockTests {
    @Test func aSecondHolderIsRefusedAndToldWhoHoldsTheFolder() throws {
        let folder = try TemporaryFolder()
        let first = try StateFolderLock(stateDirectory: folder.path)
        #expect(throws: StateFolderLockError.held(stateDirectory: folder.path, pid: getpid())) {
            _ = try StateFolderLock(stateDirectory: folder.path)
        }
        withExtendedLifetime(first) {}
    }

    @Test func theFolderIsFreeAgainOnceItsHolderIsGone() throws {
        let folder = try TemporaryFolder()
        do {
            _ = try StateFolderLock(stateDirectory: folder.path)
        }
        let again = try StateFolderLock(stateDirectory: folder.path)
        #expect(again.path == "\(folder.path)/trackd.lock")
    }

    @Test func theFileOfAHolderThatDiedDoesNotKeepTheFolder() throws {
        let folder = try TemporaryFolder()
        // What a power cut leaves: the file with the pid of a process that is gone, and no lock.
        try Data("999999\n".utf8).write(to: URL(fileURLWithPath: StateFolderLock.path(in: folder.path)))
        let lock = try StateFolderLock(stateDirectory: folder.path)
        let text = try String(contentsOfFile: lock.path, encoding: .utf8)
        #expect(text == "\(getpid())\n")
    }

    @Test func aMissingFolderIsAnErrorThatNamesTheLockFile() throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("nowhere")
        #expect(throws: StateFolderLockError.cannotOpen(path: "\(missing)/trackd.lock", errno: ENOENT)) {
            _ = try StateFolderLock(stateDirectory: missing)
        }
    }
}
