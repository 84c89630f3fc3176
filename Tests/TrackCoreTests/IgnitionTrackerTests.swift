import Testing
import TrackCore

struct IgnitionTrackerTests {
    static func at(_ seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 1_000_000_000_000).adding(seconds: seconds)
    }

    static func rpm(_ value: Double, _ seconds: Double) -> OBDEvent {
        .reading(.engineSpeed(revolutionsPerMinute: value), at: at(seconds))
    }

    @Test func theEngineSpeedSaysWhetherTheEngineRuns() {
        var ignition = IgnitionTracker()
        #expect(ignition.take(.carAnswered(supported: [0x0C]), at: Self.at(0)) == nil)
        #expect(ignition.take(Self.rpm(0, 1), at: Self.at(1)) == nil, "ignition on, engine off: nothing started")
        #expect(!ignition.isRunning)
        #expect(ignition.take(Self.rpm(780, 2), at: Self.at(2)) == .started(at: Self.at(2)))
        #expect(ignition.take(Self.rpm(2400, 3), at: Self.at(3)) == nil)
        #expect(ignition.take(.voltage(12.1), at: Self.at(4)) == nil, "the engine speed decides where the car gives it")
        #expect(ignition.isRunning)
        #expect(ignition.take(Self.rpm(0, 5), at: Self.at(5)) == .stopped(at: Self.at(5)), "a start-stop system, or the key")
        #expect(ignition.state == .off(since: Self.at(5)))
    }

    @Test func aCarThatStopsAnsweringHasItsIgnitionOff() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        #expect(ignition.take(.carSilent("0100: NO DATA"), at: Self.at(10)) == .stopped(at: Self.at(10)))
        #expect(ignition.take(.carSilent("0100: NO DATA"), at: Self.at(15)) == nil, "said once")
    }

    @Test func theVoltageDecidesWhileTheCarDoesNotAnswer() {
        var ignition = IgnitionTracker()
        #expect(ignition.take(.voltage(12.4), at: Self.at(0)) == nil, "off from the start is no change to report")
        #expect(ignition.state == .off(since: Self.at(0)))
        #expect(ignition.take(.voltage(14.1), at: Self.at(5)) == .started(at: Self.at(5)), "the alternator charges")
        #expect(ignition.take(.voltage(12.6), at: Self.at(30)) == .stopped(at: Self.at(30)))
    }

    @Test func aLostAdapterLeavesTheEngineUnknown() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        #expect(ignition.take(.adapterLost("no answer"), at: Self.at(3)) == nil)
        #expect(ignition.state == .unknown, "not off: a lost adapter does not end a trip")
        #expect(ignition.take(Self.rpm(800, 9), at: Self.at(9)) == .started(at: Self.at(9)))
    }

    @Test func anAdapterThatSleepsOnceTheEngineIsOffLeavesItOff() {
        var ignition = IgnitionTracker()
        _ = ignition.take(Self.rpm(800, 0), at: Self.at(0))
        _ = ignition.take(Self.rpm(0, 60), at: Self.at(60))
        ignition.loseAdapter()
        #expect(ignition.state == .off(since: Self.at(60)), "the trip waiting for ignition_off_after still closes")
        ignition.forget()
        #expect(ignition.state == .unknown, "another adapter: nothing known")
    }
}
