import Testing
import TrackCore

/// The messages in flight and the watermark they move.
struct UplinkWindowTests {
    private let trip = TripID(3)

    private func point(_ seq: Int64) -> UplinkPosition {
        UplinkPosition(tripID: trip, part: .point(seq))
    }

    @Test func theWatermarkMovesOnlyOverContiguousAcknowledgements() {
        var window = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        for seq in Int64(0)...2 {
            let result = window.take(point(seq))
            #expect(result)
            window.published(point(seq), token: Int32(seq + 1))
        }
        #expect(window.inFlight == 3)
        window.acknowledge(2)   // the second first
        #expect(!window.acknowledged.covers(point(0)) && !window.acknowledged.covers(point(1)))
        window.acknowledge(1)
        #expect(window.acknowledged.covers(point(1)) && !window.acknowledged.covers(point(2)))
        window.acknowledge(3)
        #expect(window.acknowledged.covers(point(2)))
        #expect(window.inFlight == 0)
    }

    @Test func aLostConnectionSendsAgainFromTheWatermark() {
        var window = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        for seq in Int64(0)...2 {
            _ = window.take(point(seq))
            window.published(point(seq), token: Int32(seq + 1))
        }
        window.acknowledge(1)
        window.acknowledge(3)
        window.reset()
        #expect(window.read == window.acknowledged)
        #expect(window.acknowledged.covers(point(0)) && !window.acknowledged.covers(point(1)))
        let resent = window.take(point(1))
        #expect(resent, "in flight when the connection went: sent again")
        let alsoResent = window.take(point(2))
        #expect(alsoResent, "acknowledged behind a gap: sent again too")
        // Tokens of the old connection mean nothing now.
        let moved = window.acknowledge(2)
        #expect(!moved)
    }

    @Test func thePositionSentAheadIsNotSentAgainWhenTheBacklogReachesIt() {
        var window = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        let newest = point(5)
        #expect(window.mayGoAhead(newest))
        window.published(newest, token: 100, ahead: true)
        #expect(!window.mayGoAhead(newest), "once")
        window.acknowledge(100)
        for seq in Int64(0)...4 {
            let result = window.take(point(seq))
            #expect(result)
            window.published(point(seq), token: Int32(seq + 1))
        }
        let result = window.take(newest)
        #expect(!result, "acknowledged already")
        for token in Int32(1)...5 { window.acknowledge(token) }
        #expect(window.acknowledged.covers(newest))
        #expect(window.inFlight == 0)
    }

    @Test func aPositionAheadStillInFlightHoldsTheWatermarkUntilItIsAcknowledged() {
        var window = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        window.published(point(1), token: 50, ahead: true)
        _ = window.take(point(0))
        window.published(point(0), token: 1)
        let result = window.take(point(1))
        #expect(!result, "in flight already")
        window.acknowledge(1)
        #expect(!window.acknowledged.covers(point(1)))
        window.acknowledge(50)
        #expect(window.acknowledged.covers(point(1)))
    }

    @Test func aTripsEndMovesTheWatermarkToTheNextTrip() {
        let cursor = UplinkCursor.beginning(of: trip)
            .advanced(past: UplinkPosition(tripID: trip, part: .started))
            .advanced(past: point(0))
            .advanced(past: UplinkPosition(tripID: trip, part: .ended))
        #expect(cursor.covers(UplinkPosition(tripID: trip, part: .ended)))
        #expect(!cursor.covers(UplinkPosition(tripID: TripID(4), part: .started)))
        #expect(cursor.advanced(past: UplinkPosition(tripID: TripID(4), part: .started)).tripID == TripID(4))
        #expect(cursor.lastMessageID(device: "van-1") == "van-1/3/end")
    }

    @Test func aResumedWindowPassesOverWhatWasAcknowledgedAhead() {
        var before = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        #expect(before.mayGoAhead(point(9)))
        before.published(point(9), token: 1, ahead: true)
        before.acknowledge(1)
        let mark = before.mark
        #expect(mark.ahead == [point(9)])

        var after = UplinkWindow(acknowledged: mark.acknowledged, acknowledgedAhead: mark.ahead, limit: 10)
        #expect(!after.mayGoAhead(point(9)))
        var sent: [Int64] = []
        for seq in Int64(0)...9 where after.take(point(seq)) { sent.append(seq) }
        #expect(sent == Array(0...8))
        #expect(after.mark.ahead.isEmpty)
    }

    @Test func theMarkHoldsOnlyAcknowledgedAheadPositions() {
        var window = UplinkWindow(acknowledged: .beginning(of: trip), limit: 10)
        window.published(point(7), token: 1, ahead: true)
        window.published(point(8), token: 2, ahead: true)
        window.acknowledge(2)
        #expect(window.mark.ahead == [point(8)])
    }
}
