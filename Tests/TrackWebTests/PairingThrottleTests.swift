import Testing
@testable import TrackWeb

struct PairingThrottleTests {
    let start = ContinuousClock.now

    @Test func answersTheFirstFiveWrongCodesAtOnce() {
        var throttle = PairingThrottle()
        for _ in 0..<4 {
            throttle.recordWrongCode(at: start)
            #expect(throttle.wait(at: start) == nil)
        }
        throttle.recordWrongCode(at: start)
        #expect(throttle.wait(at: start) == .seconds(1))
    }

    @Test func doublesTheWaitWithEachWrongCodeUpToFiveMinutes() {
        var throttle = PairingThrottle()
        var waits: [Duration] = []
        for _ in 0..<20 {
            throttle.recordWrongCode(at: start)
            waits.append(throttle.wait(at: start) ?? .zero)
        }
        #expect(Array(waits.prefix(4)) == Array(repeating: .zero, count: 4))
        #expect(Array(waits[4..<10]) == [1, 2, 4, 8, 16, 32].map { Duration.seconds($0) })
        #expect(waits[12] == .seconds(256))
        #expect(waits[13] == .seconds(300))
        #expect(waits[19] == .seconds(300))
    }

    @Test func letsTheNextAttemptThroughOnceTheWaitIsOver() {
        var throttle = PairingThrottle()
        for _ in 0..<6 { throttle.recordWrongCode(at: start) }
        #expect(throttle.wait(at: start + .milliseconds(1999)) == .milliseconds(1))
        #expect(throttle.wait(at: start + .seconds(2)) == nil)
    }

    @Test func startsAgainAfterAReset() {
        var throttle = PairingThrottle()
        for _ in 0..<10 { throttle.recordWrongCode(at: start) }
        throttle.reset()
        #expect(throttle.wait(at: start) == nil)
        #expect(throttle.wrongInARow == 0)
    }
}
