import Testing
import TrackCore

/// The record of what an uplink's receiver acknowledged, kept across a restart.
struct UplinkMarkTests {
    private let mark = UplinkMark(
        acknowledged: UplinkCursor(tripID: TripID(12), started: true, pointSeq: 345, eventID: 17, ended: false),
        ahead: [UplinkPosition(tripID: TripID(12), part: .point(400)),
                UplinkPosition(tripID: TripID(12), part: .event(19)),
                UplinkPosition(tripID: TripID(12), part: .ended),
                UplinkPosition(tripID: TripID(13), part: .started)])

    @Test func aRecordReadsBackAsTheMarkItWasMadeOf() {
        let bytes = mark.encoded()
        #expect(bytes.count == UplinkMark.size)
        #expect(UplinkMark(decoding: bytes) == mark)
        let origin = UplinkMark(acknowledged: .origin)
        #expect(UplinkMark(decoding: origin.encoded()) == origin)
    }

    @Test func aTornOrDamagedRecordReadsAsNone() {
        let bytes = mark.encoded()
        #expect(UplinkMark(decoding: bytes.prefix(40)) == nil)
        var damaged = bytes
        let index = damaged.firstIndex(of: UInt8(ascii: "3"))!   // a digit of the watermark
        damaged[index] = UInt8(ascii: "4")
        #expect(UplinkMark(decoding: damaged) == nil)
        #expect(UplinkMark(decoding: [UInt8](repeating: 0, count: UplinkMark.size)) == nil)
        #expect(UplinkMark(decoding: Array("something else\n1 1 1 1 1\n\n0\n".utf8)) == nil)
    }

    @Test func aRecordKeepsTheNewestPositionsAheadUpToItsLimit() {
        let many = (Int64(0)..<100).map { UplinkPosition(tripID: TripID(12), part: .point(1000 + $0)) }
        let decoded = UplinkMark(decoding: UplinkMark(acknowledged: mark.acknowledged, ahead: many).encoded())
        #expect(decoded?.ahead == Array(many.suffix(UplinkMark.aheadLimit)))
    }

    @Test func aMarkBehindTheLogsWatermarkIsIgnored() {
        let saved = UplinkCursor(tripID: TripID(12), started: true, pointSeq: 500, eventID: 17, ended: false)
        #expect(mark.resumption(after: saved) == UplinkMark(acknowledged: saved))
        let later = UplinkCursor.beginning(of: TripID(13))
        #expect(mark.resumption(after: later) == UplinkMark(acknowledged: later))
    }

    @Test func aMarkPastTheLogsWatermarkIsWhereTheUplinkResumes() {
        let saved = UplinkCursor(tripID: TripID(12), started: true, pointSeq: 300, eventID: 2, ended: false)
        #expect(mark.resumption(after: saved) == mark)
        let older = UplinkCursor(tripID: TripID(11), started: true, pointSeq: 9, eventID: 0, ended: true)
        #expect(mark.resumption(after: older) == mark)
    }

    @Test func positionsTheWatermarkCoversAreDroppedFromTheAheadList() {
        let moved = UplinkMark(acknowledged: UplinkCursor(tripID: TripID(12), started: true, pointSeq: 400,
                                                          eventID: 17, ended: false), ahead: mark.ahead)
        #expect(moved.resumption(after: .origin).ahead == Array(mark.ahead.dropFirst()))
    }
}
