import Testing
@testable import TrackCore

struct CarSpeedTraceTests {
    private func instant(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64((1000 + seconds) * 1e9))
    }

    @Test func integratesTheSpeedBetweenReadingsAsTrapezoids() throws {
        var trace = CarSpeedTrace()
        // 10 m/s rising evenly to 20 m/s over 10 s, read every second: 150 m.
        for second in 0...10 { trace.add(10 + Double(second), at: instant(Double(second))) }
        let metres = try #require(trace.distance(from: instant(0), to: instant(10), interval: 5))
        #expect(abs(metres - 150) < 1e-9)
    }

    @Test func holdsTheLastReadingToTheEndAndStartsFromTheReadingBefore() throws {
        var trace = CarSpeedTrace()
        trace.add(20, at: instant(0))
        trace.add(20, at: instant(2))
        trace.add(10, at: instant(4))
        // From 1 s (20 m/s from the reading at 0 s to the one at 2 s), then 20 → 10 m/s to 4 s, then 10 m/s to 6 s.
        let metres = try #require(trace.distance(from: instant(1), to: instant(6), interval: 5))
        #expect(abs(metres - (20 + 30 + 20)) < 1e-9)
    }

    @Test func coversNothingWithAHoleInTheReadings() {
        var trace = CarSpeedTrace()
        for second in [0.0, 1, 2, 9, 10] { trace.add(15, at: instant(second)) }
        #expect(trace.distance(from: instant(0.5), to: instant(10), interval: 5) == nil)
        // Nor without a reading shortly before the start, nor one shortly before the end.
        #expect(trace.distance(from: instant(-10), to: instant(2), interval: 5) == nil)
        #expect(trace.distance(from: instant(9), to: instant(16), interval: 5) == nil)
        #expect(trace.distance(from: instant(9), to: instant(14), interval: 5) == 75)
    }

    @Test func forgetsWhatCameBeforeAnInstantButTheSpeedAtIt() throws {
        var trace = CarSpeedTrace()
        for second in 0...5 { trace.add(Double(second), at: instant(Double(second))) }
        trace.forget(before: instant(3.5))
        #expect(trace.distance(from: instant(2.5), to: instant(4), interval: 5) == nil)
        let metres = try #require(trace.distance(from: instant(3.5), to: instant(4), interval: 5))
        // From the reading at 3 s (3 m/s) to the one at 4 s (4 m/s), the half second after 3.5 s: trapezoid of
        // 3 m/s at 3.5 s (the reading before the start, held) and 4 m/s at 4 s.
        #expect(abs(metres - 1.75) < 1e-9)
    }

    @Test func refusesReadingsOutOfOrderOrNotFinite() {
        var trace = CarSpeedTrace()
        trace.add(10, at: instant(0))
        trace.add(.nan, at: instant(1))
        trace.add(-3, at: instant(1))
        trace.add(90, at: instant(-1))
        trace.add(10, at: instant(2))
        #expect(trace.distance(from: instant(0), to: instant(4), interval: 5) == 40)
    }
}
