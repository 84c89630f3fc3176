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

    @Test func eachKindOfRecordReadsBackAsItWasWritten() throws {
        let ends = TripEnds(start: Coordinate(latitude: 59.4370001, longitude: 24.7536002), end: nil)
        for record in [TrackPointRecord.header(tripID: 42), .points(Self.points(0 ..< 3)), .points([]), .ends(ends),
                       .ends(TripEnds(start: nil, end: Self.origin))] {
            let bytes = record.encoded(number: 7)
            let decoded = try #require(TrackPointRecord.decode(bytes, at: 0, number: 7))
            #expect(decoded.record == record)
            #expect(decoded.next == bytes.count)
        }
    }

    @Test func aRecordWithAnyByteChangedOrCutShortOrOutOfTurnIsNotRead() {
        let bytes = TrackPointRecord.points(Self.points(0 ..< 2)).encoded(number: 3)
        #expect(TrackPointRecord.decode(bytes, at: 0, number: 4) == nil, "another number than expected")
        for length in [0, 5, TrackPointRecord.headerSize, bytes.count - 1] {
            #expect(TrackPointRecord.decode(Array(bytes.prefix(length)), at: 0, number: 3) == nil, "cut at \(length)")
        }
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x10
            #expect(TrackPointRecord.decode(changed, at: 0, number: 3) == nil, "byte \(index) changed")
        }
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
        #expect(file.size == (try Self.bytes(of: file.path)).count)
    }

    @Test func aRecordCutShortByAPowerCutAndWhateverFollowsItAreLeftOut() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        try await file.append(Self.points(0 ..< 4), ends: nil, tripID: 9)
        let synced = file.size
        try await file.append(Self.points(4 ..< 8), ends: nil, tripID: 9)
        let whole = try Self.bytes(of: file.path)
        // Every length the second commit may have reached on the card: the first commit reads back whole.
        for length in stride(from: synced, to: whole.count, by: 7) {
            try Data(whole.prefix(length)).write(to: URL(fileURLWithPath: file.path))
            let contents = try #require(try await TrackPointFile(path: file.path).contents())
            #expect(contents.points == Self.points(0 ..< 4), "cut at \(length)")
        }
        // A record written whole again after a failed attempt: stale bytes of the attempt after it are not read.
        try Data(whole + Array(whole[synced...])).write(to: URL(fileURLWithPath: file.path))
        #expect(try await TrackPointFile(path: file.path).contents()?.points == Self.points(0 ..< 8))
        try Data([0x55] + whole).write(to: URL(fileURLWithPath: file.path))
        #expect(try await TrackPointFile(path: file.path).contents() == nil, "no header at the start: nothing")
    }

    @Test func aResetEmptiesTheFileAndTheNextAppendStartsAfresh() async throws {
        let folder = try TemporaryFolder()
        let file = TrackPointFile(path: folder.file("trackd.sqlite-points"))
        try await file.append(Self.points(0 ..< 4), ends: nil, tripID: 1)
        try await file.reset(zeroing: true)
        #expect(file.size == 0)
        #expect(try Self.bytes(of: file.path).isEmpty)
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
