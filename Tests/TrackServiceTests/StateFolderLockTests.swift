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

    @Test func theFileOfAHolderThatDiedDoesNotKeepTheFolderAndIsNotWritten() throws {
        let folder = try TemporaryFolder()
        // What a power cut leaves: the file with the pid of a process that is gone (an older trackd wrote it), and
        // no lock. The lock is taken; the file, which the card would pay for, is left as it is.
        try Data("999999\n".utf8).write(to: URL(fileURLWithPath: StateFolderLock.path(in: folder.path)))
        let lock = try StateFolderLock(stateDirectory: folder.path)
        #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "999999\n")
        // The one refused is told the holder from the kernel's table of locks, not from the file.
        #expect(throws: StateFolderLockError.held(stateDirectory: folder.path, pid: getpid())) {
            _ = try StateFolderLock(stateDirectory: folder.path)
        }
    }

    @Test func theHolderIsTheProcessTheKernelsTableGivesForTheFile() {
        let table = """
            1: POSIX  ADVISORY  WRITE 77 b3:02:131081 0 EOF
            2: FLOCK  ADVISORY  WRITE 4242 b3:02:131081 0 EOF
            2: -> FLOCK  ADVISORY  WRITE 5151 b3:02:131081 0 EOF
            3: FLOCK  ADVISORY  WRITE 99 103:05:131081 0 EOF
            """
        // Device 179:2 (an SD card's second partition), as glibc packs it.
        let card = UInt64(179) << 8 | 2
        #expect(StateFolderLock.holder(device: card, inode: 131_081, in: table) == 4242)
        #expect(StateFolderLock.holder(device: UInt64(259) << 8 | 5, inode: 131_081, in: table) == 99)
        #expect(StateFolderLock.holder(device: card, inode: 131_082, in: table) == nil)
    }

    @Test func aMissingFolderIsAnErrorThatNamesTheLockFile() throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("nowhere")
        #expect(throws: StateFolderLockError.cannotOpen(path: "\(missing)/trackd.lock", errno: ENOENT)) {
            _ = try StateFolderLock(stateDirectory: missing)
        }
    }
}
