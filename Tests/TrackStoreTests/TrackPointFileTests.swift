import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("The running trip's point file")
struct TrackPointFileTests {
    static let start = UTCTime(iso8601: "2026-11-26T08:00:00Z")!
    static let origin = Coordinate(latitude: 59.437, longitude: 24.7536)

    /// Points a second apart at 10 m/s due east, seconds `range` of the drive (at the log's stored precision).
    static func points(_ range: Range<Int>) -> [RecordedPoint] {
        TripRecordingTests.eastbound(range, from: origin, at: start).map { StoredPoint($0).recorded }
    }

    static func bytes(of path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The 512-byte blocks the filesystem holds for the file at `path`.
    static func allocatedBlocks(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileReadNoSuchFile) }
        return Int(info.st_blocks)
    }

    @Test func eachKindOfRecordReadsBackAsItWasWritten() throws {
        let ends = TripEnds(start: Coordinate(latitude: 59.4370001, longitude: 24.7536002), end: nil)
        for record in [TrackPointRecord.header(tripID: 42, generation: 5), .header(tripID: nil, generation: 6),
                       .header(tripID: 42, generation: nil), .points(Self.points(0 ..< 3)), .points([]), .ends(ends),
                       .ends(TripEnds(start: nil, end: Self.origin))] {
            let bytes = record.encoded(number: 7, generation: 9)
            let decoded = try #require(TrackPointRecord.decode(bytes, at: 0, number: 7, generation: 9))
            #expect(decoded.record == record)
            #expect(decoded.next == bytes.count)
        }
    }

    @Test func aRecordWithAnyByteChangedOrCutShortOrOutOfTurnIsNotRead() {
        let bytes = TrackPointRecord.points(Self.points(0 ..< 2)).encoded(number: 3, generation: 9)
        #expect(TrackPointRecord.decode(bytes, at: 0, number: 3, generation: 9) != nil)
        #expect(TrackPointRecord.decode(bytes, at: 0, number: 4, generation: 9) == nil, "another number than expected")
        for length in [0, 5, TrackPointRecord.headerSize, bytes.count - 1] {
            #expect(TrackPointRecord.decode(Array(bytes.prefix(length)), at: 0, number: 3, generation: 9) == nil,
                    "cut at \(length)")
        }
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x10
            #expect(TrackPointRecord.decode(changed, at: 0, number: 3, generation: 9) == nil, "byte \(index) changed")
        }
    }

    @Test func aRecordOfAnotherGenerationIsNotRead() {
        let bytes = TrackPointRecord.points(Self.points(0 ..< 2)).encoded(number: 3, generation: 9)
        for other: UInt32 in [8, 10, 0, 1 << 31, .max] {
            #expect(TrackPointRecord.decode(bytes, at: 0, number: 3, generation: other) == nil, "generation \(other)")
        }
        #expect(TrackPointRecord.decode(bytes, at: 0, number: 3, generation: nil) == nil, "a file of format 1")
    }

    @Test func appendsReadBackAsOneTripWithItsNewestEnds() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        #expect(try await file.contents() == nil, "no file yet")
        try await file.append(Self.points(0 ..< 5), ends: TripEnds(start: Self.origin), tripID: 3)
        try await file.append(Self.points(5 ..< 8), ends: nil, tripID: 3)
        let end = Geodesic.point(east: 70, north: 0, from: Self.origin)
        try await file.append([], ends: TripEnds(end: end), tripID: 3)
        // Read by another object, as trackd's next start would.
        let contents = try #require(try await TrackPointFile(path: file.path).contents())
        #expect(contents.tripID == 3)
        #expect(contents.points == Self.points(0 ..< 8))
        #expect(contents.ends == TripEnds(start: Self.origin, end: end))
        #expect(file.size < (try Self.bytes(of: file.path)).count, "inside the zeros the file was made with")
    }

    @Test func aRecordCutShortByAPowerCutAndWhateverFollowsItAreLeftOut() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        try await file.append(Self.points(0 ..< 4), ends: nil, tripID: 9)
        let synced = file.size
        try await file.append(Self.points(4 ..< 8), ends: nil, tripID: 9)
        let whole = try Self.bytes(of: file.path)
        let end = file.size
        // Every length the second commit may have reached on the card, its other bytes what was there before (bytes
        // of an earlier trip, say; where they equal the commit's own, its record is whole): the first commit reads
        // back whole.
        for length in stride(from: synced, to: end, by: 7) {
            let cut = Array(whole.prefix(length)) + [UInt8](repeating: 0xA5, count: whole.count - length)
            try Data(cut).write(to: URL(fileURLWithPath: file.path))
            let contents = try #require(try await TrackPointFile(path: file.path).contents())
            #expect(contents.points == Self.points(0 ..< 4), "cut at \(length)")
        }
        // A record written whole again after a failed attempt: stale bytes of the attempt after it are not read.
        try Data(Array(whole.prefix(end)) + Array(whole[synced ..< end])).write(to: URL(fileURLWithPath: file.path))
        #expect(try await TrackPointFile(path: file.path).contents()?.points == Self.points(0 ..< 8))
        try Data([0x55] + whole).write(to: URL(fileURLWithPath: file.path))
        #expect(try await TrackPointFile(path: file.path).contents() == nil, "no header at the start: nothing")
    }

    @Test func aCommitWritesInsideTheFileAndChangesNeitherItsLengthNorItsBlocks() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"), reserve: 65_536)
        try await file.reset()
        let made = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        #expect(made == 65_536, "made with its reserve of zeros")
        let blocks = try Self.allocatedBlocks(file.path)
        for second in stride(from: 0, to: 600, by: 60) {
            try await file.append(Self.points(second ..< second + 60), ends: nil, tripID: 4)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == 65_536)
            #expect(try Self.allocatedBlocks(file.path) == blocks)
        }
        #expect(file.size > 30_000)
        // Past the reserve the file grows by whole steps of zeros, and every point still reads back.
        try await file.append(Self.points(600 ..< 1_200), ends: nil, tripID: 4)
        let grown = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(grown > 65_536 && grown % TrackPointFile.growth == 0)
        #expect(try await TrackPointFile(path: file.path).contents()?.points == Self.points(0 ..< 1_200))
    }

    @Test func aCommitThatWouldRunIntoOneMoreBlockStartsAtTheNextBlock() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite-points")
        let file = TrackPointFile(path: path)
        try await file.reset()
        // A minute of points (3 377 bytes) after the header and the first minute: they would end in the second block
        // and touch the first one again, so they start at the second block's start; the zeros before it stay.
        try await file.append(Self.points(0 ..< 60), ends: nil, tripID: 3)
        let first = file.size
        #expect(first > 3_000 && first < TrackPointFile.block)
        try await file.append(Self.points(60 ..< 120), ends: nil, tripID: 3)
        var bytes = try Self.bytes(of: path)
        #expect(bytes[first ..< TrackPointFile.block].allSatisfy { $0 == 0 })
        #expect(bytes[TrackPointFile.block] == 2, "a record of points at the second block's start")
        // Ten points more fit in the second block: they follow the minute there.
        let second = file.size
        try await file.append(Self.points(120 ..< 130), ends: TripEnds(start: Self.origin), tripID: 3)
        bytes = try Self.bytes(of: path)
        #expect(bytes[second] == 2)
        #expect(file.size < 2 * TrackPointFile.block)
        let contents = try #require(try await TrackPointFile(path: path).contents())
        #expect(contents.points == Self.points(0 ..< 130))
        #expect(contents.ends == TripEnds(start: Self.origin))
        // A byte that is not zero between the first block's records and the second block ends what is read there.
        bytes[first + 100] = 1
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try await TrackPointFile(path: path).contents()?.points == Self.points(0 ..< 60))
    }

    @Test func recordsAnEarlierGenerationLeftPastTheNewestAreNotRead() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        // Trip 1 commits a minute at a time, then the log takes the file and it is emptied; trip 2 commits minutes
        // of the same size, so its records end exactly where trip 1's next ones begin.
        for minute in 0 ..< 5 {
            try await file.append(Self.points(minute * 60 ..< minute * 60 + 60), ends: TripEnds(start: Self.origin),
                                  tripID: 1)
        }
        try await file.reset()
        #expect(try await TrackPointFile(path: file.path).contents() == nil, "emptied: nothing to read")
        for minute in 10 ..< 12 {
            try await file.append(Self.points(minute * 60 ..< minute * 60 + 60), ends: TripEnds(start: Self.origin),
                                  tripID: 2)
        }
        let contents = try #require(try await TrackPointFile(path: file.path).contents())
        #expect(contents.tripID == 2)
        #expect(contents.points == Self.points(600 ..< 720))
        // The same trip again after the log took the file (its bound, an event): only what came after.
        try await file.reset()
        try await file.append(Self.points(720 ..< 780), ends: nil, tripID: 2)
        #expect(try await TrackPointFile(path: file.path).contents()?.points == Self.points(720 ..< 780))
    }

    @Test func aTripsFirstCommitCutShortBeforeItsHeaderLeavesNothingTheNextTripReads() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite-points")
        let file = TrackPointFile(path: path)
        try await file.reset()
        let emptied = try Self.bytes(of: path)
        try await file.append(Self.points(0 ..< 60), ends: TripEnds(start: Self.origin), tripID: 1)
        let written = try Self.bytes(of: path)
        // The power is cut while the first commit is written: its records reached the card, its header did not.
        let header = TrackPointRecord.headerRecordSize
        try Data(Array(emptied.prefix(header)) + Array(written[header...])).write(to: URL(fileURLWithPath: path))
        #expect(try await TrackPointFile(path: path).contents() == nil)
        // The next life empties the file again and trip 2 commits as many points: trip 1's ends, right after them
        // and numbered as its next record would be, are not read.
        let next = TrackPointFile(path: path)
        #expect(try await next.contents() == nil)
        try await next.reset()
        try await next.append(Self.points(100 ..< 160), ends: nil, tripID: 2)
        let contents = try #require(try await TrackPointFile(path: path).contents())
        #expect(contents.points == Self.points(100 ..< 160))
        #expect(contents.ends == nil)
    }

    @Test func aFileOfFormat1IsReadThenWrittenOverWithZeros() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite-points")
        let old = TrackPointRecord.header(tripID: 7, generation: nil).encoded(number: 0, generation: nil)
            + TrackPointRecord.points(Self.points(0 ..< 5)).encoded(number: 1, generation: nil)
            + TrackPointRecord.ends(TripEnds(start: Self.origin)).encoded(number: 2, generation: nil)
        try Data(old).write(to: URL(fileURLWithPath: path))
        let file = TrackPointFile(path: path)
        let contents = try #require(try await file.contents())
        #expect(contents.tripID == 7)
        #expect(contents.points == Self.points(0 ..< 5))
        #expect(contents.ends == TripEnds(start: Self.origin))
        try await file.reset()
        let bytes = try Self.bytes(of: path)
        #expect(bytes.count == file.reserve)
        #expect(bytes[TrackPointRecord.headerRecordSize...].allSatisfy { $0 == 0 }, "the old records are gone")
        #expect(try await TrackPointFile(path: path).contents() == nil)
    }

    @Test func aFileFoundLooserIsTightenedAndOneFoundTighterIsLeftAsItIs() async throws {
        // (The file trackd makes is `rw-r-----` whatever the umask: SystemTests' FileModeTests, where the control
        // socket is bound under umask 077 while the file is made; a test here cannot change the process's umask.)
        let folder = try TemporaryFolder()
        for (found, kept) in [(0o666, 0o640), (0o600, 0o600)] {
            let path = folder.file("points-\(found)")
            #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: found]))
            try await TrackPointFile(path: path).reset()
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == kept, "found \(String(found, radix: 8))")
        }
        let made = folder.file("points-new")
        try await TrackPointFile(path: made).reset()
        #expect(try FileManager.default.attributesOfItem(atPath: made)[.posixPermissions] as? Int == 0o640)
    }

    @Test func aResetEmptiesTheFileAndTheNextAppendStartsAfresh() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        try await file.append(Self.points(0 ..< 4), ends: nil, tripID: 1)
        try await file.reset(zeroing: true)
        #expect(file.size == 0)
        let bytes = try Self.bytes(of: file.path)
        #expect(bytes.count == file.reserve, "the file keeps its length")
        #expect(bytes[TrackPointRecord.headerRecordSize...].allSatisfy { $0 == 0 }, "zeros where the points were")
        #expect(try await TrackPointFile(path: file.path).contents() == nil)
        try await file.append(Self.points(10 ..< 12), ends: nil, tripID: 2)
        let contents = try #require(try await file.contents())
        #expect(contents.tripID == 2)
        #expect(contents.points == Self.points(10 ..< 12))
    }

    @Test func anAppendRefusesToBuryWhatAnotherLifeOfTrackdLeftInTheFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite-points")
        try await TrackPointFile(path: path).append(Self.points(0 ..< 4), ends: nil, tripID: 1)
        let before = try Self.bytes(of: path)
        await #expect(throws: StoreError.self) {
            try await TrackPointFile(path: path).append(Self.points(4 ..< 6), ends: nil, tripID: 1)
        }
        #expect(try Self.bytes(of: path) == before, "nothing written over it")
    }

    @Test func theLogTakesTheFileOnceHoweverOftenItIsSettled() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        try await log.appendPoints(Self.points(0 ..< 3), to: trip.id)
        let file = TrackPointFile(path: TrackPointFile.path(forLog: log.path))
        let end = Geodesic.point(east: 90, north: 0, from: Self.origin)
        try await file.append(Self.points(3 ..< 10), ends: TripEnds(end: end), tripID: trip.id)
        let contents = try #require(try await file.contents())
        // Settled, then (a power cut before the file was emptied) settled again at the next start.
        try await log.settle(contents)
        try await log.settle(contents)
        #expect(try sqlite3(log.path, "SELECT COUNT(*), MIN(seq), MAX(seq) FROM track_point") == "10|0|9")
        let stored = try #require(try await log.openTrip()?.trip.endPosition)
        #expect(Geodesic.distance(from: stored, to: end) < 0.001)
    }

    @Test func aTripClosedMeanwhileTakesNoPointsFromTheFile() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        try await log.appendPoints(Self.points(0 ..< 3), to: trip.id)
        _ = try await log.closeTrip(trip.id, TripSummary(start: Self.start, end: Self.start.adding(seconds: 2),
                                                         startPosition: nil, endPosition: nil, measuredDistance: 20,
                                                         purpose: nil, endReason: "stopped"))
        let contents = TrackPointFile.Contents(tripID: trip.id, points: Self.points(3 ..< 6), ends: nil)
        await #expect { try await log.settle(contents) } throws: { ($0 as? StoreError)?.isRefusal == true }
        #expect(try sqlite3(log.path, "SELECT COUNT(*) FROM track_point") == "3")
        #expect(try await log.verify().isIntact)
    }

    @Test func aCopyOfALogPulledOffTheCardTakesThePointsWaitingBesideIt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        try await log.appendPoints(Self.points(0 ..< 2), to: trip.id)
        try await TrackPointFile(path: TrackPointFile.path(forLog: path)).append(Self.points(2 ..< 6), ends: nil,
                                                                                   tripID: trip.id)
        let before = try Self.bytes(of: path)
        let copy = try MileageLog.openCopy(of: path)
        #expect(try await copy.track(trip.id).joined().count == 6)
        #expect(try Self.bytes(of: path) == before, "the original is not written")
        #expect(try sqlite3(path, "SELECT COUNT(*) FROM track_point") == "2")
    }
}
